/**
 * The crash test: the real server (a child process) is killed with SIGKILL at random moments while
 * two members upload photos (whole files and chunked sessions) and photos are copied into the
 * watched primary repository, for many rounds. After the last start the members retry what was
 * never answered (as their clients would: resume the session, or send the file again), and then:
 *
 * - every upload is catalogued exactly once, for the member who uploaded it;
 * - every copied file is catalogued exactly once (for the repository's default owner);
 * - no asset is left pending or processing, no receipt uploading, no commit unsettled;
 * - nothing is left in `.hearth/staging/`;
 * - `PRAGMA integrity_check` is ok.
 *
 * Randomness (which file, whole or chunked, pauses, when the kill comes) is seeded: the seed is
 * printed, and HEARTH_CRASH_SEED=<seed> replays the same choices (the kill still lands wherever the
 * server is at that moment). HEARTH_CRASH_ROUNDS sets the number of kills (default 6, about a
 * minute); a longer run: HEARTH_CRASH_ROUNDS=40.
 *
 * Every file is unique (a JPEG comment with its own id is inserted after the SOI marker), so the
 * content hash tells which upload or copy each asset is.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { hashBytes } from '../../../server/src/adapters/media/hash.ts';
import { seededRandom } from '../../shared/seeded-random.ts';
import { Client, tempDataDir } from '../helpers/server.ts';
import { addMember, data, login, registerAdmin } from '../helpers/api.ts';
import { CORPUS, U, listFiles, postMultipart, type Answer } from '../uploads/helpers.ts';
import { kill9, openCatalog, startChild, stopChild, until, type Child } from './child.ts';

const ROUNDS = Number(process.env.HEARTH_CRASH_ROUNDS ?? 6);
const SEED = Number(process.env.HEARTH_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CHUNK = 32 * 1024;

/** Small real photos (a few KB to a few hundred KB): many files per round, quick to process. */
const POOL = [
  'exif/Canon_40D.jpg',
  'exif/Nikon_D70.jpg',
  'exif/Pentax_K10D.jpg',
  'exif/Panasonic_DMC-FZ30.jpg',
  'exif/Canon_SD1100_picasa_tags.jpg',
  'exif/Konica_Minolta_DiMAGE_Z3.jpg',
  'gps/big_ben.jpg',
  'gps/sydney_opera_house.jpg',
  'gps/Canon_600D_gps.jpg',
  'gps/thompson-springs.jpg',
  'duplicates/IMG_20180725_163423-tiny.jpg',
].map((rel) => fs.readFileSync(path.join(CORPUS, rel)));

/** The photo with a JPEG comment segment (FF FE) carrying `id` right after SOI: a valid, unique file. */
function uniqueJpeg(base: Buffer, id: string): Buffer {
  assert.equal(base.readUInt16BE(0), 0xffd8, 'a JPEG');
  const text = Buffer.from(`hearth crash test ${id}`);
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xfffe, 0);
  seg.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([base.subarray(0, 2), seg, text, base.subarray(2)]);
}

interface Upload {
  member: string;
  name: string;
  bytes: Buffer;
  hash: string;
  mode: 'whole' | 'chunked';
  sessionId?: string;
  answered: boolean;
}

interface Copy {
  rel: string;
  hash: string;
}

/** The payload of a multipart answer in the client's variant. */
function payload(c: Client, a: Answer): any {
  return c.variant === 'B' ? a.body?.data : a.body;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test(`kill -9 at random moments of ingest (${ROUNDS} rounds): every upload and copy catalogued once, for its owner; nothing left behind`, { timeout: 900_000 }, async (t) => {
  t.diagnostic(`seed ${SEED} (replay with HEARTH_CRASH_SEED=${SEED}), ${ROUNDS} rounds`);
  process.stdout.write(`# crash test seed ${SEED}, ${ROUNDS} rounds\n`);
  const rand = seededRandom(SEED);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const dataDir = tempDataDir('hearth-crash-ingest-');
  const repo = path.join(dataDir, 'storage/primary');
  const uploads: Upload[] = [];
  const copies: Copy[] = [];
  let serial = 0;
  const prepare = async (member: string): Promise<Upload> => {
    const id = `${member}-${++serial}`;
    const bytes = uniqueJpeg(pick(POOL), id);
    const mode = rand() < 0.4 ? 'chunked' : 'whole';
    const u: Upload = { member, name: `${id}.jpg`, bytes, hash: await hashBytes(bytes), mode, answered: false };
    uploads.push(u);
    return u;
  };

  /** Sends (or resumes) one upload; marks it answered when the server said it is stored. */
  async function send(c: Client, url: string, u: Upload): Promise<void> {
    const ok = (status: string | undefined) => status === 'processing' || status === 'completed' || status === 'duplicate';
    if (u.mode === 'whole') {
      const r = await postMultipart(url, `${U}/files`, c.token, [{ name: 'file', filename: u.name, data: u.bytes }], { headers: { 'x-api-variant': c.variant } });
      if (r.status === 200 && ok(payload(c, r)?.status)) u.answered = true;
      return;
    }
    const total = Math.ceil(u.bytes.length / CHUNK);
    // As the web client does, the session id is chosen before asking: a kill between the server making the
    // session and the client hearing of it leaves no session behind, because the retry names the same one.
    u.sessionId ??= crypto.randomUUID();
    const s = await c.post(`${U}/sessions`, { session_id: u.sessionId, filename: u.name, total_size: u.bytes.length, total_chunks: total, chunk_size: CHUNK });
    if (s.status !== 200 && s.status !== 201) return;
    const session = data(c, s);
    u.sessionId = session.session_id;
    if (session.status === 'completed' || session.status === 'merging') {
      u.answered = session.status === 'completed';
      return;
    }
    if (session.status === 'failed') {
      // The session cannot go on (its chunks were lost): the client starts over with a new one.
      u.sessionId = undefined;
      return;
    }
    const missing = Array.from({ length: total }, (_, i) => i).filter((i) => !session.received_chunks.includes(i));
    // Two requests with a pause between: a kill often lands between them.
    const half = Math.ceil(missing.length / 2);
    for (const part of [missing.slice(0, half), missing.slice(half)]) {
      if (part.length === 0) continue;
      const r = await postMultipart(
        url,
        `${U}/batch`,
        c.token,
        part.map((i) => ({ name: `chunk_${u.sessionId}_${i}_${total}`, filename: 'blob', data: u.bytes.subarray(i * CHUNK, (i + 1) * CHUNK) })),
        { headers: { 'x-api-variant': c.variant } },
      );
      if (r.status !== 200) return;
      const results = payload(c, r).results as { status: string; success: boolean }[];
      if (results.some((x) => x.success && ok(x.status))) u.answered = true;
      await sleep(rand() * 150);
    }
  }

  let child: Child | undefined;
  try {
    child = await startChild(dataDir);
    const admin = new Client(child.url);
    await registerAdmin(admin);
    const members = [new Client(child.url, 'A'), new Client(child.url, 'B')];
    await addMember(admin, members[0]!, 'bob');
    await addMember(admin, members[1]!, 'carol');
    const names = ['bob', 'carol'];
    fs.mkdirSync(path.join(repo, 'incoming'), { recursive: true });

    for (let round = 1; round <= ROUNDS; round++) {
      if (round > 1) child = await startChild(dataDir);
      const url = child.url;
      let stop = false;
      const clients = await Promise.all(
        names.map(async (n, i) => {
          const c = new Client(url, i === 0 ? 'A' : 'B');
          await login(c, n);
          return c;
        }),
      );
      const uploaders = clients.map(async (c, i) => {
        while (!stop) {
          const u = await prepare(names[i]!);
          await send(c, url, u).catch(() => undefined); // the server may die under any request
          await sleep(30 + rand() * 250);
        }
      });
      const copier = (async () => {
        while (!stop) {
          const rel = `incoming/r${round}-${++serial}.jpg`;
          const bytes = uniqueJpeg(pick(POOL), rel);
          copies.push({ rel, hash: await hashBytes(bytes) });
          await fs.promises.writeFile(path.join(repo, rel), bytes);
          await sleep(100 + rand() * 400);
        }
      })();
      await sleep(300 + rand() * 2200);
      await kill9(child);
      stop = true;
      await Promise.all([...uploaders, copier]);
    }

    // The last start: the clients retry what was never answered, then everything settles.
    child = await startChild(dataDir);
    const finalClients = await Promise.all(
      names.map(async (n, i) => {
        const c = new Client(child!.url, i === 0 ? 'A' : 'B');
        await login(c, n);
        return c;
      }),
    );
    // A request may still meet a connection closed under it on a loaded machine (a kept-alive socket the server
    // let go as the request left): the client tries again, as a phone would; every request here is idempotent
    // (a session named by its id, a whole file deduplicated by its hash). A server that died is a failure.
    const lost: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      for (const u of uploads.filter((x) => !x.answered)) {
        await send(finalClients[names.indexOf(u.member)]!, child.url, u).catch((e: Error & { cause?: { code?: string } }) => {
          lost.push(`${u.name}: ${e.message} (${e.cause?.code ?? 'no code'})`);
        });
      }
    }
    assert.equal(child.child.exitCode ?? child.child.signalCode, null, `the server stays up after the last start:\n${child.output()}`);
    const unanswered = uploads.filter((u) => !u.answered);
    assert.deepEqual(unanswered.map((u) => `${u.member}/${u.name} (${u.mode})`), [], `every upload is answered once the server stays up (requests lost: ${lost.join('; ')})`);
    if (lost.length) t.diagnostic(`requests retried after a lost connection: ${lost.join('; ')}`);

    const db = openCatalog(dataDir);
    const count = (sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number;
    await until(
      'every file catalogued and processed',
      () =>
        [...uploads, ...copies].every((f) => count('SELECT count(*) FROM assets WHERE hash = ?', f.hash) > 0) &&
        count(`SELECT count(*) FROM assets WHERE state IN ('pending', 'processing')`) === 0 &&
        count(`SELECT count(*) FROM jobs WHERE kind = 'assets.process-asset' AND state IN ('available', 'scheduled', 'running', 'retryable')`) === 0,
      240_000,
    );
    const userId = (name: string) => count('SELECT user_id FROM users WHERE username = ?', name);
    for (const u of uploads) {
      const rows = db.prepare('SELECT owner_id, original_filename, is_deleted FROM assets WHERE hash = ?').all(u.hash) as { owner_id: number; original_filename: string; is_deleted: number }[];
      assert.equal(rows.length, 1, `${u.member}/${u.name} (${u.mode}) is catalogued exactly once`);
      assert.equal(rows[0]!.owner_id, userId(u.member), `${u.member}/${u.name} belongs to its uploader`);
      assert.equal(rows[0]!.original_filename, u.name);
      assert.equal(rows[0]!.is_deleted, 0);
    }
    for (const f of copies) {
      const rows = db.prepare('SELECT owner_id, storage_path FROM assets WHERE hash = ?').all(f.hash) as { owner_id: number; storage_path: string }[];
      assert.equal(rows.length, 1, `${f.rel} is catalogued exactly once`);
      assert.equal(rows[0]!.storage_path, f.rel);
      assert.equal(rows[0]!.owner_id, userId('alice'));
    }
    assert.equal(count('SELECT count(*) FROM assets'), uploads.length + copies.length, 'no other asset (no copy of a file twice)');
    assert.equal(count(`SELECT count(*) FROM assets WHERE state IN ('pending', 'processing')`), 0, 'no asset left processing');
    assert.equal(count(`SELECT count(*) FROM upload_receipts WHERE status = 'uploading'`), 0, 'no receipt left uploading');
    assert.equal(count(`SELECT count(*) FROM intake_commits`), 0, 'no commit left unsettled');
    const failed = db.prepare(`SELECT original_filename, last_error FROM assets WHERE state = 'failed'`).all();
    db.close();
    await stopChild(child);

    assert.deepEqual(listFiles(path.join(repo, '.hearth/staging')), [], 'nothing left in staging');
    const check = openCatalog(dataDir);
    assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
    check.close();
    t.diagnostic(
      `${uploads.length} uploads (${uploads.filter((u) => u.mode === 'chunked').length} chunked), ${copies.length} copies, ${ROUNDS} kills; failed assets: ${JSON.stringify(failed)}`,
    );
  } finally {
    if (child) await kill9(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * Files copied into a folder while it is being registered and first scanned, over a real server and
 * real chokidar: a writer starts the moment createRepository answers and copies photos in, into the
 * root and into a subfolder made meanwhile: some in one go, some slowly in pieces (one with a pause
 * longer than the watcher's quiet period, so it is first seen half-written), and two big ones the
 * way a slow disk or network copy delivers them: most of the file, a pause long enough for Hearth
 * to catalogue and start processing what is there, then the rest. Every round, every file must end
 * up catalogued exactly once, with the content it has on disk at the end, `ready`, and processed
 * from that content: its perceptual hash is the one the same photo gets when copied in at rest (a
 * reference repository catalogued first), not that of a half-decoded image. Waits are conditions
 * with a generous deadline; nothing is timed.
 *
 * Before the fix, the rest of such a file arrived while its half was being processed: the
 * processing job of the new content was dropped as a duplicate of the running one, which then
 * failed on the half file ("premature end of JPEG image"), so the photo never became ready, or
 * finished `ready` with thumbnails and hash of the half-decoded image. The
 * watcher also reported files that appeared before its initial listing was done without waiting
 * for them to be written, and the first scan walked without waiting for the watcher or for files
 * to be quiet.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { data, login, V1 } from '../helpers/api.ts';
import { Client } from '../helpers/server.ts';
import { cleanupTemps, corpusFile, createRepo, makeRepoFolder, startEnv, waitFor, type Env } from './helpers.ts';

/** Ten distinct photos of the corpus; the first and the sixth are big JPEGs (seconds to decode here). */
const PHOTOS = [
  'duplicates/IMG_20180725_163423.jpg',
  'exif/Nikon_D70.jpg',
  'exif/Pentax_K10D.jpg',
  'exif/Olympus_E-P3.jpg',
  'faces/face_027.jpg',
  'exif/Ricoh_Caplio_RR330.jpg',
  'exif/Fujifilm_FinePix_E500.jpg',
  'gps/DSCN0010.jpg',
  'gps/DSCN0012.jpg',
  'gps/big_ben.jpg',
];
const ROUNDS = 4;
const DEADLINE_MS = 180_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Copied "while processed": this much of the file first, the rest once Hearth is processing it. */
const FIRST_PART = 0.85;

/** Writes `src` to `dest` in `pieces` parts with `pauseMs` between them (the last pause may differ). */
async function writeSlowly(src: string, dest: string, pieces: number, pauseMs: number, longPauseMs = pauseMs): Promise<void> {
  const bytes = fs.readFileSync(src);
  const fd = fs.openSync(dest, 'w');
  try {
    const step = Math.ceil(bytes.length / pieces);
    for (let i = 0; i < pieces; i++) {
      fs.writeSync(fd, bytes, i * step, Math.min(step, bytes.length - i * step));
      if (i < pieces - 1) await sleep(i === Math.floor(pieces / 2) ? longPauseMs : pauseMs);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes most of `src`, waits (up to a deadline) until the catalog shows that part being processed,
 * then writes the rest: a copy whose end arrives while Hearth works on its beginning.
 */
async function writeWhileProcessed(src: string, dest: string, isProcessing: () => boolean): Promise<void> {
  const bytes = fs.readFileSync(src);
  const first = Math.floor(bytes.length * FIRST_PART);
  const fd = fs.openSync(dest, 'w');
  try {
    fs.writeSync(fd, bytes, 0, first);
    const until = Date.now() + 30_000;
    while (!isProcessing() && Date.now() < until) await sleep(10);
    fs.writeSync(fd, bytes, first, bytes.length - first);
  } finally {
    fs.closeSync(fd);
  }
}

interface Row {
  asset_id: string;
  storage_path: string;
  file_size: number;
  hash: string | null;
  state: string;
  is_deleted: number;
  phash: string | null;
}

describe('Repositories: files copied in while the folder is being registered', { timeout: 1_200_000 }, () => {
  let env: Env;
  let clientB: Client;
  const refPhash = new Map<string, string>(); // corpus file → perceptual hash when processed at rest
  before(async () => {
    env = await startEnv();
    clientB = new Client(env.ts.url, 'B');
    await login(clientB, 'alice');
    // The reference: the same photos copied in at rest, catalogued and processed.
    const ref = makeRepoFolder(Object.fromEntries(PHOTOS.map((p, i) => [`ref-${i}${path.extname(p)}`, p])));
    await createRepo(env, ref.dir, 'Reference');
    const rows = await waitFor(
      'the reference photos processed',
      () => {
        const all = env.ts.container.db.prepare("SELECT storage_path, phash FROM assets WHERE repository_id = ? AND state = 'ready'").all(ref.id) as Row[];
        return all.length === PHOTOS.length ? all : undefined;
      },
      DEADLINE_MS,
    );
    for (const r of rows) {
      assert.match(r.phash ?? '', /^[0-9a-f]{16}$/, r.storage_path);
      refPhash.set(PHOTOS[Number(/ref-(\d+)/.exec(r.storage_path)![1])]!, r.phash!);
    }
  });
  after(async () => {
    await env.ts.stop({ removeData: true });
    cleanupTemps();
  });

  test(`${ROUNDS} rounds of ten files copied in right as createRepository answers: every file catalogued exactly once, with its final content, and ready`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      // Folders already there make the watcher's initial listing take a moment, as a real library does.
      const { dir, id } = makeRepoFolder();
      for (let d = 0; d < 300; d++) {
        fs.mkdirSync(path.join(dir, 'existing', `folder-${d}`), { recursive: true });
        fs.writeFileSync(path.join(dir, 'existing', `folder-${d}`, 'notes.txt'), `folder ${d}\n`);
      }
      const expected = new Map<string, string>(); // repository path → corpus file
      PHOTOS.forEach((p, i) => expected.set(i % 4 === 3 ? `incoming/photo-${i}.jpg` : `photo-${i}.jpg`, p));

      await createRepo(env, dir, `Copy round ${round}`);
      // The writer starts as soon as the repository is registered.
      const writes: Promise<void>[] = [];
      let i = 0;
      const stateAt = env.ts.container.db.prepare('SELECT state FROM assets WHERE repository_id = ? AND storage_path = ?').pluck();
      for (const [rel, src] of expected) {
        const dest = path.join(dir, ...rel.split('/'));
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        if (i === 0 || i === 5) {
          writes.push(writeWhileProcessed(corpusFile(src), dest, () => stateAt.get(id, rel) === 'processing'));
        } else if (i % 3 === 1) {
          // Slowly, in pieces; one of them with a pause longer than the quiet period.
          writes.push(writeSlowly(corpusFile(src), dest, 6, 60 + 40 * (i % 4), i === 4 ? 2_500 : undefined));
        } else {
          fs.copyFileSync(corpusFile(src), dest);
        }
        i++;
        await sleep(15);
      }
      await Promise.all(writes);

      const finalHash = new Map<string, string>();
      for (const rel of expected.keys()) finalHash.set(rel, await hashFile(path.join(dir, ...rel.split('/'))));

      const rows = await waitFor(
        `round ${round}: all ${expected.size} files catalogued with their final content, ready, and processed from it`,
        () => {
          const all = env.ts.container.db
            .prepare('SELECT asset_id, storage_path, file_size, hash, state, is_deleted, phash FROM assets WHERE repository_id = ?')
            .all(id) as Row[];
          const done = all.filter(
            (r) => !r.is_deleted && r.state === 'ready' && r.hash === finalHash.get(r.storage_path) && r.phash === refPhash.get(expected.get(r.storage_path)!),
          );
          return done.length === expected.size ? all : undefined;
        },
        DEADLINE_MS,
      );
      assert.deepEqual(rows.map((r) => r.storage_path).sort(), [...expected.keys()].sort(), `round ${round}: each file exactly once, nothing else`);
      for (const r of rows) assert.equal(r.file_size, fs.statSync(path.join(dir, ...r.storage_path.split('/'))).size, r.storage_path);

      // What the owner sees over the API: every photo ready, in both response variants.
      for (const c of [env.admin, clientB]) {
        for (const r of rows) {
          const a = data(c, await c.get(`${V1}/assets/${r.asset_id}`));
          assert.equal(a.state, 'ready', `${r.storage_path} (variant ${c.variant})`);
          assert.equal(a.original_filename, path.posix.basename(r.storage_path));
        }
      }
    }
  });

  test('a scan (watching off) that meets files still being written waits for them: catalogued once, from their final content, and ready', async () => {
    const { dir, id } = makeRepoFolder();
    await createRepo(env, dir, 'Scan meets a copy');
    const repos = env.ts.container.repositories;
    await waitFor('the first scan', () => env.ts.container.db.prepare("SELECT 1 FROM repository_scans WHERE repository_id = ? AND status = 'completed'").get(id));
    await repos.stopWatching(id!);
    try {
      const files = { 'slow/a.jpg': PHOTOS[0]!, 'slow/b.jpg': PHOTOS[3]!, 'slow/c.jpg': PHOTOS[9]! };
      const bytes = Object.values(files).map((src) => fs.readFileSync(corpusFile(src)));
      fs.mkdirSync(path.join(dir, 'slow'));
      const fds = Object.keys(files).map((rel) => fs.openSync(path.join(dir, ...rel.split('/')), 'w'));
      const PIECES = 8;
      const write = (k: number) =>
        fds.forEach((fd, j) => {
          const b = bytes[j]!;
          const step = Math.ceil(b.length / PIECES);
          fs.writeSync(fd, b, k * step, Math.max(0, Math.min(step, b.length - k * step)));
        });
      write(0);
      // The scan starts while the files are a piece long; the writer goes on meanwhile.
      const asked = await env.admin.post(`${V1}/repositories/${id}/scans`, {});
      assert.ok(asked.status === 202 || asked.status === 200, asked.text);
      for (let k = 1; k < PIECES; k++) {
        await sleep(150);
        write(k);
      }
      fds.forEach((fd) => fs.closeSync(fd));
      const finalHash = new Map<string, string>();
      for (const rel of Object.keys(files)) finalHash.set(rel, await hashFile(path.join(dir, ...rel.split('/'))));
      const rows = await waitFor(
        'the copied files catalogued from their final content and ready',
        () => {
          const all = env.ts.container.db.prepare('SELECT asset_id, storage_path, file_size, hash, state, is_deleted, phash FROM assets WHERE repository_id = ?').all(id) as Row[];
          const done = all.filter((r) => r.state === 'ready' && r.hash === finalHash.get(r.storage_path) && r.phash === refPhash.get(files[r.storage_path as keyof typeof files]));
          return done.length === Object.keys(files).length ? all : undefined;
        },
        DEADLINE_MS,
      );
      assert.deepEqual(rows.map((r) => r.storage_path).sort(), Object.keys(files).sort(), 'each file exactly once');
      assert.equal(repos.isWatching(id!), false, 'only the scan saw these files');
    } finally {
      await repos.startWatching(id!);
    }
  });
});

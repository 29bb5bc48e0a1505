/**
 * Takeout parts uploaded from the browser, through the real app: a real export (built from corpus files with
 * sidecars) goes up in sequential chunks, streamed to the repository's staging folder, survives a request cut
 * off mid-chunk (the client asks how far it got and goes on), and once whole is found by listTakeoutArchives
 * and previewed like a part placed by hand. Wrong offsets, bad names, someone else's upload, bodies larger than
 * declared and uploads idle for a day are refused or removed. The list of unfinished uploads shows a member only
 * their own (administrators included), newest activity first with when each goes if left, and loses what finishes
 * or is swept.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, signedInHousehold } from '../helpers/api.ts';
import { cleanupTemps, makeRepoFolder } from '../repositories/helpers.ts';
import { buildTakeout, familyTakeout } from '../helpers/takeout-archive.ts';
import { TAKEOUT_UPLOAD_STAGING } from '../../../server/src/features/cloud-import/takeout-uploads.service.ts';
import { RepositoriesStore } from '../../../server/src/features/repositories/repositories.store.ts';

const CHUNK = 256 * 1024;
const UPLOADS = `${V1}/cloud/takeout/uploads`;

describe('Takeout upload from the browser', () => {
  let srv: TestServer;
  let admin: Client;
  let anna: Client;
  let ben: Client;
  let repositoryId: string;
  let repoPath: string;
  let tmp: string;
  let part: Buffer;
  let partName: string;

  const create = (c: Client, filename: string, size: number) => c.post(UPLOADS, { repository_id: repositoryId, filename, size });
  const put = (c: Client, id: string, bytes: Buffer, start: number, total: number, range = `bytes ${start}-${start + bytes.length - 1}/${total}`) =>
    c.req('PUT', `${UPLOADS}/${id}`, { body: bytes, headers: { 'content-type': 'application/octet-stream', 'content-range': range } });
  const partial = (id: string) => path.join(repoPath, TAKEOUT_UPLOAD_STAGING, `${id}.partial`);

  /** Sends `bytes` from `from` on in chunks; answers the last answer's upload. */
  async function sendFrom(c: Client, id: string, bytes: Buffer, from: number) {
    let last: any = null;
    for (let at = from; at < bytes.length; at += CHUNK) {
      const r = await put(c, id, bytes.subarray(at, Math.min(at + CHUNK, bytes.length)), at, bytes.length);
      assert.equal(r.status, 200, r.text);
      last = data(c, r);
      assert.equal(last.received, Math.min(at + CHUNK, bytes.length));
    }
    return last;
  }

  before(async () => {
    srv = await startServer();
    const household = await signedInHousehold(srv.url, 'A', ['anna', 'ben'] as const);
    admin = household.admin;
    anna = household.members.anna.client;
    ben = household.members.ben.client;
    const repo = srv.container.repositories.primary()!;
    repositoryId = repo.repository_id;
    repoPath = repo.path;
    // The export is built outside the repository: only the upload may bring it in.
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-takeout-upload-'));
    const [file] = await buildTakeout(tmp, { format: 'zip', files: familyTakeout(), stem: 'takeout-20240303T000000Z' });
    part = fs.readFileSync(file!);
    partName = path.basename(file!);
    assert.ok(part.length > 4 * CHUNK, `the export spans several chunks (${part.length} bytes)`);
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    fs.rmSync(tmp, { recursive: true, force: true });
    cleanupTemps();
  });

  test('a part sent in chunks lands in Takeout/, is listed as an archive and previews like a placed part', async () => {
    const created = await create(anna, partName, part.length);
    assert.equal(created.status, 201);
    const upload = data(anna, created);
    assert.equal(upload.received, 0);
    assert.equal(upload.status, 'uploading');
    assert.ok(fs.existsSync(partial(upload.upload_id)), 'the partial file waits in staging');

    const first = data(anna, await put(anna, upload.upload_id, part.subarray(0, CHUNK), 0, part.length));
    assert.equal(first.received, CHUNK);
    const { archives: during } = data(anna, await anna.get(`${V1}/cloud/takeout/archives?repository_id=${repositoryId}`));
    assert.deepEqual(during, [], 'a partial part is never listed as a part');

    const done = await sendFrom(anna, upload.upload_id, part, CHUNK);
    assert.equal(done.status, 'complete');
    assert.equal(done.part_path, `Takeout/${partName}`);
    assert.ok(fs.readFileSync(path.join(repoPath, 'Takeout', partName)).equals(part), 'the part is the file, byte for byte');
    assert.ok(!fs.existsSync(partial(upload.upload_id)), 'nothing is left in staging');
    assert.equal(data(anna, await anna.get(`${UPLOADS}/${upload.upload_id}`)).status, 'complete', 'a client whose answer was lost learns where the part went');

    const { archives } = data(anna, await anna.get(`${V1}/cloud/takeout/archives?repository_id=${repositoryId}`));
    assert.deepEqual(archives.map((a: { name: string; parts: { path: string }[] }) => [a.name, a.parts.map((p) => p.path)]), [['takeout-20240303T000000Z', [`Takeout/${partName}`]]]);
    const preview = data(anna, await anna.post(`${V1}/cloud/takeout/preview`, { repository_id: repositoryId, parts: [done.part_path] }));
    assert.equal(preview.photos + preview.videos, 12);
    assert.deepEqual(preview.albums.map((a: { name: string }) => a.name).sort(), ['Best of 2019', "Kids' drawings", 'Summer trip']);
  });

  test('a second upload of a name that is taken goes beside it, never over it', async () => {
    const other = Buffer.concat([part.subarray(0, 1000), Buffer.from('another export')]);
    const upload = data(anna, await create(anna, partName, other.length));
    const done = data(anna, await put(anna, upload.upload_id, other, 0, other.length));
    assert.equal(done.part_path, `Takeout/2/${partName}`);
    assert.ok(fs.readFileSync(path.join(repoPath, 'Takeout', partName)).equals(part), 'the first part is untouched');
    assert.ok(fs.readFileSync(path.join(repoPath, 'Takeout', '2', partName)).equals(other));
  });

  test('a chunk at the wrong offset answers 409 with the bytes the server has', async () => {
    const upload = data(anna, await create(anna, 'takeout-20240404T000000Z-001.zip', part.length));
    const ahead = await put(anna, upload.upload_id, part.subarray(CHUNK, 2 * CHUNK), CHUNK, part.length);
    const p = problem(anna, ahead);
    assert.equal(p.status, 409);
    assert.equal(p.code, 'takeout_upload_offset_mismatch');
    assert.equal((p as { received?: number }).received, 0);
    data(anna, await put(anna, upload.upload_id, part.subarray(0, CHUNK), 0, part.length));
    const again = problem(anna, await put(anna, upload.upload_id, part.subarray(0, CHUNK), 0, part.length));
    assert.equal(again.code, 'takeout_upload_offset_mismatch');
    assert.equal((again as { received?: number }).received, CHUNK, 'a chunk sent twice is not written twice');
    const noRange = problem(anna, await anna.req('PUT', `${UPLOADS}/${upload.upload_id}`, { body: part.subarray(CHUNK, 2 * CHUNK), headers: { 'content-type': 'application/octet-stream' } }));
    assert.equal(noRange.code, 'takeout_upload_bad_range');
    const otherTotal = problem(anna, await put(anna, upload.upload_id, part.subarray(CHUNK, 2 * CHUNK), CHUNK, part.length + 1));
    assert.equal(otherTotal.code, 'takeout_upload_size_mismatch');
    data(anna, await anna.req('DELETE', `${UPLOADS}/${upload.upload_id}`));
    assert.ok(!fs.existsSync(partial(upload.upload_id)), 'cancelling removes what arrived');
    assert.equal(problem(anna, await anna.get(`${UPLOADS}/${upload.upload_id}`)).code, 'takeout_upload_not_found');
  });

  test('a chunk cut off mid-way keeps what arrived; the client asks how far it got and goes on', async () => {
    const name = 'takeout-20240505T000000Z-001.zip';
    const upload = data(anna, await create(anna, name, part.length));
    data(anna, await put(anna, upload.upload_id, part.subarray(0, CHUNK), 0, part.length));

    // The second chunk's request dies after part of its body reached the server's disk.
    const url = new URL(`${srv.url}${UPLOADS}/${upload.upload_id}`);
    const cut = http.request(url, {
      method: 'PUT',
      headers: { authorization: `Bearer ${anna.token}`, 'content-type': 'application/octet-stream', 'content-range': `bytes ${CHUNK}-${4 * CHUNK - 1}/${part.length}`, 'content-length': String(3 * CHUNK) },
    });
    cut.on('error', () => undefined);
    cut.write(part.subarray(CHUNK, CHUNK + 100_000));
    while (fs.statSync(partial(upload.upload_id)).size <= CHUNK) await new Promise((r) => setTimeout(r, 20));
    cut.destroy();

    // The server records what arrived once it notices the cut; until then another chunk finds the upload busy.
    let received = CHUNK;
    for (;;) {
      received = data(anna, await anna.get(`${UPLOADS}/${upload.upload_id}`)).received;
      if (received > CHUNK) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(received <= CHUNK + 100_000, `no more than was sent counts (${received})`);
    assert.equal(data(anna, await create(anna, name, part.length)).upload_id, upload.upload_id, 'starting the same file again goes on with it');

    const done = await sendFrom(anna, upload.upload_id, part, received);
    assert.equal(done.status, 'complete');
    assert.ok(fs.readFileSync(path.join(repoPath, ...done.part_path.split('/'))).equals(part), 'the resumed part is the file, byte for byte');
  });

  test('a repository on a drive that is unplugged keeps what its upload received: nothing is counted again from 0', async () => {
    const name = 'takeout-20240606T000000Z-001.zip';
    const upload = data(anna, await create(anna, name, part.length));
    data(anna, await put(anna, upload.upload_id, part.subarray(0, CHUNK), 0, part.length));
    data(anna, await put(anna, upload.upload_id, part.subarray(CHUNK, 2 * CHUNK), CHUNK, part.length));

    // The drive goes away: its files cannot be read and the repository is offline.
    const repositories = new RepositoriesStore(srv.container.db);
    const file = partial(upload.upload_id);
    fs.renameSync(file, `${file}.unplugged`);
    repositories.setStatus(repositoryId, 'offline', null, Date.now());
    try {
      assert.equal(data(anna, await anna.get(`${UPLOADS}/${upload.upload_id}`)).received, 2 * CHUNK, 'how far it got, as recorded');
      const listed = data(anna, await anna.get(`${UPLOADS}?repository_id=${repositoryId}`)).uploads.find((u: any) => u.upload_id === upload.upload_id);
      assert.equal(listed.received, 2 * CHUNK);
    } finally {
      fs.renameSync(`${file}.unplugged`, file);
      repositories.setStatus(repositoryId, 'active', null, Date.now());
    }
    // Back: it goes on from there.
    assert.equal(data(anna, await anna.get(`${UPLOADS}/${upload.upload_id}`)).received, 2 * CHUNK);
    const done = await sendFrom(anna, upload.upload_id, part, 2 * CHUNK);
    assert.ok(fs.readFileSync(path.join(repoPath, ...done.part_path.split('/'))).equals(part), 'the part is the file, byte for byte');
  });

  test('names that are not one plain Takeout part name are refused with 422', async () => {
    for (const name of ['../takeout-x-001.zip', 'Takeout/takeout-x-001.zip', 'takeout-a\\b-001.zip', 'takeout-..-001.zip', 'takeout-x\u0001-001.zip', 'takeout-x\u0000.zip', 'holiday.zip', 'takeout-x-001.rar', 'takeout-x-001.zip.exe', ' takeout-x-001.zip']) {
      const p = problem(anna, await create(anna, name, 100));
      assert.equal(p.status, 422, name);
      assert.equal(p.code, 'takeout_upload_bad_name', name);
      assert.equal(p.errors?.[0]?.field, 'body.filename');
    }
    for (const name of ['takeout-x-001.tgz', 'takeout-x-002.tar.gz']) assert.equal((await create(anna, name, 100)).status, 201, name);
  });

  test("another member cannot see, send to or cancel someone's upload", async () => {
    const upload = data(anna, await create(anna, 'takeout-20240606T000000Z-001.zip', 1000));
    for (const r of [
      await ben.get(`${UPLOADS}/${upload.upload_id}`),
      await put(ben, upload.upload_id, Buffer.alloc(10), 0, 1000),
      await ben.req('DELETE', `${UPLOADS}/${upload.upload_id}`),
    ]) {
      const p = problem(ben, r);
      assert.equal(p.status, 404);
      assert.equal(p.code, 'takeout_upload_not_found');
    }
    assert.equal(data(anna, await anna.get(`${UPLOADS}/${upload.upload_id}`)).received, 0, 'nothing of ben reached it');
    const benOwn = data(ben, await create(ben, 'takeout-20240606T000000Z-001.zip', 1000));
    assert.notEqual(benOwn.upload_id, upload.upload_id, 'the same file from another member is their own upload');
  });

  test('more bytes than declared are refused and the upload removed', async () => {
    const upload = data(anna, await create(anna, 'takeout-20240707T000000Z-001.zip', 1000));
    data(anna, await put(anna, upload.upload_id, Buffer.alloc(400, 1), 0, 1000));
    const over = problem(anna, await put(anna, upload.upload_id, Buffer.alloc(1100, 2), 400, 1000, 'bytes 400-999/1000'));
    assert.equal(over.status, 413);
    assert.equal(over.code, 'takeout_upload_too_large');
    assert.ok(!fs.existsSync(partial(upload.upload_id)), 'the partial file is removed');
    assert.equal(problem(anna, await anna.get(`${UPLOADS}/${upload.upload_id}`)).code, 'takeout_upload_not_found');
    const past = data(anna, await create(anna, 'takeout-20240707T000000Z-002.zip', 1000));
    assert.equal(problem(anna, await put(anna, past.upload_id, Buffer.alloc(10), 995, 1000, 'bytes 995-1004/1000')).code, 'takeout_upload_offset_mismatch', 'the offset is checked first');
    assert.equal(problem(anna, await put(anna, past.upload_id, Buffer.alloc(1010), 0, 1000, 'bytes 0-1009/1000')).status, 413);
    assert.ok(!fs.existsSync(partial(past.upload_id)));
  });

  test('a start larger than the free space is refused at once with a clear problem', async () => {
    const p = problem(anna, await create(anna, 'takeout-20240808T000000Z-001.zip', 2 ** 50));
    assert.equal(p.status, 507);
    assert.equal(p.code, 'insufficient_storage');
    assert.match(p.detail, /free/);
  });

  test("the photo uploads' staging clean-up leaves a Takeout part that takes days alone", async () => {
    const upload = data(anna, await create(anna, 'takeout-20241010T000000Z-001.zip', 1000));
    data(anna, await put(anna, upload.upload_id, Buffer.alloc(500, 3), 0, 1000));
    // Two days old on disk (the uploads' staging age is a day), yet the upload is alive: it must survive.
    const twoDaysAgo = (Date.now() - 48 * 3600_000) / 1000;
    fs.utimesSync(partial(upload.upload_id), twoDaysAgo, twoDaysAgo);
    fs.utimesSync(path.join(repoPath, TAKEOUT_UPLOAD_STAGING), twoDaysAgo, twoDaysAgo);
    await srv.container.uploads.cleanupStaging();
    assert.ok(fs.existsSync(partial(upload.upload_id)), 'the partial part is still there');
    const done = data(anna, await put(anna, upload.upload_id, Buffer.alloc(500, 4), 500, 1000));
    assert.equal(done.status, 'complete');
  });

  test('the unfinished uploads list only your own, latest activity first, filtered by repository; finished or swept ones leave it', async () => {
    // Members of their own: what the tests above left (anna's, ben's) does not count here.
    const cleo = new Client(srv.url, 'A');
    const dora = new Client(srv.url, 'A');
    await addMember(admin, cleo, 'cleo');
    await addMember(admin, dora, 'dora');
    const folder = makeRepoFolder();
    const second = data(admin, await admin.post(`${V1}/repositories`, { name: 'Second', path: folder.dir })).id as string;
    const list = async (c: Client, query = '') => {
      const r = await c.get(`${UPLOADS}${query}`);
      assert.equal(r.status, 200, r.text);
      return data(c, r).uploads as { upload_id: string; repository_id: string; filename: string; received: number; size: number; status: string; updated_at: string; expires_at: string }[];
    };

    const halfway = data(cleo, await create(cleo, 'takeout-20250101T000000Z-001.zip', 1000));
    data(cleo, await put(cleo, halfway.upload_id, Buffer.alloc(400, 1), 0, 1000));
    const elsewhereAnswer = await cleo.post(UPLOADS, { repository_id: second, filename: 'takeout-20250101T000000Z-002.zip', size: 500 });
    assert.equal(elsewhereAnswer.status, 201, elsewhereAnswer.text);
    const elsewhere = data(cleo, elsewhereAnswer);
    const finished = data(cleo, await create(cleo, 'takeout-20250101T000000Z-003.zip', 300));
    assert.equal(data(cleo, await put(cleo, finished.upload_id, Buffer.alloc(300, 2), 0, 300)).status, 'complete');
    // An hour older than the half-way one, so the order does not hang on two requests' milliseconds.
    const hourAgo = Date.now() - 3600_000;
    srv.container.db.prepare('UPDATE takeout_uploads SET updated_at = ? WHERE upload_id = ?').run(hourAgo, elsewhere.upload_id);

    const all = await list(cleo);
    assert.deepEqual(all.map((u) => u.upload_id), [halfway.upload_id, elsewhere.upload_id], 'unfinished only, the latest activity first');
    assert.deepEqual([all[0]!.received, all[0]!.size, all[0]!.status, all[0]!.filename], [400, 1000, 'uploading', 'takeout-20250101T000000Z-001.zip']);
    assert.equal(Date.parse(all[1]!.expires_at) - Date.parse(all[1]!.updated_at), 24 * 3600_000, 'removed a day after its last activity');
    assert.equal(all[1]!.updated_at, new Date(hourAgo).toISOString());
    assert.deepEqual((await list(cleo, `?repository_id=${repositoryId}`)).map((u) => u.upload_id), [halfway.upload_id]);
    assert.deepEqual((await list(cleo, `?repository_id=${second}`)).map((u) => u.upload_id), [elsewhere.upload_id]);
    assert.deepEqual(await list(cleo, `?repository_id=${crypto.randomUUID()}`), [], 'an unknown repository lists none');

    assert.deepEqual(await list(dora), [], 'another member sees none of them');
    assert.deepEqual(await list(admin), [], 'an administrator neither: an upload is its member’s');
    assert.deepEqual(await list(admin, `?repository_id=${repositoryId}`), []);

    for (const query of ['?repository_id=nope', '?repository_id=', `?repository_id=${repositoryId}x`]) {
      const p = problem(cleo, await cleo.get(`${UPLOADS}${query}`));
      assert.equal(p.status, 422, query);
      assert.ok(p.errors?.some((e) => e.field.includes('repository_id')), `the problem names the field (${query})`);
    }

    // A day without a chunk: the list sweeps it before answering, with what arrived of it.
    srv.container.db.prepare('UPDATE takeout_uploads SET updated_at = ? WHERE upload_id = ?').run(Date.now() - 25 * 3600_000, halfway.upload_id);
    assert.deepEqual((await list(cleo)).map((u) => u.upload_id), [elsewhere.upload_id], 'the idle one is gone');
    assert.ok(!fs.existsSync(partial(halfway.upload_id)), 'its partial file too');
    // Sent to the end, the other one leaves the list: its part is in the repository's archives now.
    data(cleo, await cleo.req('PUT', `${UPLOADS}/${elsewhere.upload_id}`, { body: Buffer.alloc(500, 3), headers: { 'content-type': 'application/octet-stream', 'content-range': 'bytes 0-499/500' } }));
    assert.deepEqual(await list(cleo), []);
  });

  test('uploads idle for a day are removed with their partial files', async () => {
    const stale = data(anna, await create(anna, 'takeout-20240909T000000Z-001.zip', 1000));
    data(anna, await put(anna, stale.upload_id, Buffer.alloc(300, 7), 0, 1000));
    const orphan = path.join(repoPath, TAKEOUT_UPLOAD_STAGING, 'left-by-a-crash.partial');
    fs.writeFileSync(orphan, 'x');
    const dayAgo = Date.now() - 25 * 3600_000;
    srv.container.db.prepare('UPDATE takeout_uploads SET updated_at = ? WHERE upload_id = ?').run(dayAgo, stale.upload_id);
    fs.utimesSync(orphan, dayAgo / 1000, dayAgo / 1000);
    const fresh = data(anna, await create(anna, 'takeout-20240909T000000Z-002.zip', 1000));
    assert.equal(problem(anna, await anna.get(`${UPLOADS}/${stale.upload_id}`)).code, 'takeout_upload_not_found');
    assert.ok(!fs.existsSync(partial(stale.upload_id)), 'the idle partial file is removed');
    assert.ok(!fs.existsSync(orphan), 'a partial file no upload owns is removed');
    assert.ok(fs.existsSync(partial(fresh.upload_id)), 'a live upload keeps its partial file');
  });
});

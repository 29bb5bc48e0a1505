/**
 * Chunked uploads through sessions: interrupted and resumed (the resume reports the chunks the
 * server holds, also after a restart on the same data folder), chunk indexes out of range and
 * repeated, other users' sessions (404), a chunk cut off mid-way (discarded), progress, the
 * client hash check, and the staging cleanup job.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, login, problem } from '../helpers/api.ts';
import { U, copyCorpus, startUploadServer, stopUploadServer, eventually, listFiles, postMultipart, stagingFiles, uploadFolderNow, type Part } from './helpers.ts';

const BIG = 'duplicates/IMG_20180725_163423.jpg'; // about 4 MB
const MID = 'duplicates/iphone_hdr_NO.jpg'; // about 2 MB
const SMALL = 'gps/DSCN0025.jpg';
const CHUNK = 1024 * 1024;

function chunksOf(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

describe('chunked upload sessions', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  let repoPath: string;
  let src: ReturnType<typeof copyCorpus>;

  const sendChunks = (sessionId: string, chunks: Buffer[], indexes: number[], token = alice.token, total = chunks.length) =>
    postMultipart(
      srv,
      `${U}/batch`,
      token,
      indexes.map((i): Part => ({ name: `chunk_${sessionId}_${i}_${total}`, filename: 'blob', data: chunks[i] ?? Buffer.from('x') })),
    );

  before(async () => void ({ src, srv, alice, bob, repoPath } = await startUploadServer([BIG, MID, SMALL])));
  after(() => stopUploadServer(srv, src));

  test('an interrupted chunked upload resumes with the chunks the server holds, also after a restart', async () => {
    const bytes = fs.readFileSync(src.file(BIG));
    const hash = await hashFile(src.file(BIG));
    const chunks = chunksOf(bytes, CHUNK);
    assert.ok(chunks.length >= 4);
    const created = await alice.post(`${U}/sessions`, { filename: 'big photo.jpg', total_size: bytes.length, total_chunks: chunks.length, client_hash: hash, content_type: 'image/jpeg' });
    assert.equal(created.status, 201, created.text);
    const s = created.body;
    assert.equal(s.status, 'pending');
    assert.deepEqual(s.received_chunks, []);
    assert.equal(s.total_chunks, chunks.length);
    assert.match(s.receipt_id, /^[0-9a-f-]{36}$/);

    // Two chunks arrive (out of order), then the connection "drops".
    const first = await sendChunks(s.session_id, chunks, [2, 0]);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.results.map((r: { success: boolean; status: string }) => [r.success, r.status]), [[true, 'uploading'], [true, 'uploading']]);
    assert.equal(first.body.results[1].received_chunks, 2);

    const resumed = await alice.post(`${U}/sessions`, { session_id: s.session_id, filename: 'big photo.jpg', total_size: bytes.length, total_chunks: chunks.length, client_hash: hash });
    assert.equal(resumed.status, 200, resumed.text);
    assert.deepEqual(resumed.body.received_chunks, [0, 2]);
    assert.equal(resumed.body.bytes_received, chunks[0]!.length + chunks[2]!.length);
    assert.equal(resumed.body.status, 'uploading');
    assert.equal(resumed.body.receipt_id, s.receipt_id);

    const progress = await alice.get(`${U}/sessions?session_ids=${s.session_id}`);
    assert.equal(progress.status, 200, progress.text);
    assert.equal(progress.body.sessions.length, 1);
    const p = progress.body.sessions[0];
    assert.deepEqual([p.received_chunks, p.completed_chunks, p.bytes_total, p.status], [2, [0, 2], bytes.length, 'uploading']);
    assert.ok(p.progress > 0 && p.progress < 1);
    assert.equal(progress.body.summary.active_sessions, 1);

    // Restart: a new server on the same data folder still knows the session and its chunks.
    const dataDir = srv.dataDir;
    await srv.stop();
    srv = await startServer({ dataDir });
    alice = new Client(srv.url);
    await login(alice, 'alice');
    bob = new Client(srv.url);
    await login(bob, 'bob');
    const afterRestart = await alice.post(`${U}/sessions`, { session_id: s.session_id, filename: 'big photo.jpg', total_size: bytes.length, total_chunks: chunks.length, client_hash: hash });
    assert.equal(afterRestart.status, 200, afterRestart.text);
    assert.deepEqual(afterRestart.body.received_chunks, [0, 2]);

    // The session's data file cut short on disk (into chunk 2): chunk 2 no longer counts.
    const dataFile = path.join(repoPath, '.hearth/staging/sessions', s.session_id, 'data');
    fs.truncateSync(dataFile, 2 * CHUNK + 10);
    const damaged = await alice.post(`${U}/sessions`, { session_id: s.session_id, filename: 'big photo.jpg', total_size: bytes.length, total_chunks: chunks.length });
    assert.deepEqual(damaged.body.received_chunks, [0]);

    const rest = chunks.map((_, i) => i).filter((i) => i !== 0);
    const fin = await sendChunks(s.session_id, chunks, rest);
    assert.equal(fin.status, 200, fin.text);
    const last = fin.body.results.at(-1);
    assert.equal(last.success, true, JSON.stringify(last));
    assert.equal(last.status, 'processing');
    assert.equal(last.content_hash, hash);
    assert.equal(last.size, bytes.length);
    assert.equal(last.file_name, 'big photo.jpg');
    const stored = path.join(repoPath, uploadFolderNow(), 'big photo.jpg');
    assert.deepEqual(fs.readFileSync(stored), bytes);
    assert.deepEqual(stagingFiles(repoPath), [], 'chunks removed after the commit');

    const done = await alice.post(`${U}/sessions`, { session_id: s.session_id, filename: 'big photo.jpg', total_size: bytes.length, total_chunks: chunks.length });
    assert.equal(done.body.status, 'completed');
    assert.deepEqual(done.body.received_chunks, chunks.map((_, i) => i));
    const again = await sendChunks(s.session_id, chunks, [1]);
    assert.equal(again.body.results[0].problem.code, 'session_completed');
    assert.equal(again.body.results[0].problem.status, 409);
    await srv.container.jobRunner.whenIdle();
    const receipt = await eventually(async () => {
      const o = (await alice.get(`${U}/receipts?receipt_ids=${s.receipt_id}`)).body.operations[0];
      return o?.terminal ? o : null;
    }, 60_000, 'the receipt');
    assert.equal(receipt.status, 'completed');
  });

  test('chunk index out of range, wrong total, repeated chunks (same size: fine; other size: 409)', async () => {
    const bytes = fs.readFileSync(src.file(MID));
    const chunks = chunksOf(bytes, 512 * 1024);
    const n = chunks.length;
    const s = (await alice.post(`${U}/sessions`, { filename: 'mid.jpg', total_size: bytes.length, total_chunks: n })).body;

    const out = await sendChunks(s.session_id, chunks, [n]);
    assert.equal(out.status, 200, out.text);
    assert.equal(out.body.results[0].success, false);
    assert.equal(out.body.results[0].problem.code, 'chunk_index_out_of_range');
    assert.equal(out.body.results[0].problem.status, 422);

    const wrongTotal = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${s.session_id}_0_${n + 1}`, filename: 'b', data: chunks[0]! }]);
    assert.equal(wrongTotal.body.results[0].problem.code, 'chunk_total_mismatch');

    const ok1 = await sendChunks(s.session_id, chunks, [0]);
    assert.equal(ok1.body.results[0].success, true, ok1.text);
    const same = await sendChunks(s.session_id, chunks, [0]);
    assert.equal(same.body.results[0].success, true, 'a repeat with the same size is idempotent');
    assert.equal(same.body.results[0].received_chunks, 1);

    const shorter = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${s.session_id}_0_${n}`, filename: 'b', data: chunks[0]!.subarray(0, 1000) }]);
    assert.equal(shorter.body.results[0].problem.code, 'chunk_conflict');
    assert.equal(shorter.body.results[0].problem.status, 409);
    const longer = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${s.session_id}_0_${n}`, filename: 'b', data: Buffer.concat([chunks[0]!, Buffer.from('more')]) }]);
    assert.equal(longer.body.results[0].problem.status, 409);
    // A middle chunk of another size than the session's chunks.
    const odd = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${s.session_id}_1_${n}`, filename: 'b', data: chunks[1]!.subarray(0, 777) }]);
    assert.equal(odd.body.results[0].problem.code, 'chunk_size_mismatch');

    // The stored chunk is still the first one, intact (at its place in the session's data file).
    const stored = fs.readFileSync(path.join(repoPath, '.hearth/staging/sessions', s.session_id, 'data')).subarray(0, chunks[0]!.length);
    assert.deepEqual(stored, chunks[0]);
    const resumed = await alice.post(`${U}/sessions`, { session_id: s.session_id, filename: 'mid.jpg', total_size: bytes.length, total_chunks: n });
    assert.deepEqual(resumed.body.received_chunks, [0]);
    assert.ok(!listFiles(path.join(repoPath, '.hearth/staging/sessions', s.session_id)).some((f) => f.endsWith('.partial')));

    // The whole batch at once: the rest completes the file.
    const fin = await sendChunks(s.session_id, chunks, chunks.map((_, i) => i).slice(1));
    assert.equal(fin.body.results.at(-1).status, 'processing', fin.text);
    assert.deepEqual(fs.readFileSync(path.join(repoPath, uploadFolderNow(), 'mid.jpg')), bytes);
  });

  test("another user's session is 404, for chunks and for resuming", async () => {
    const bytes = fs.readFileSync(src.file(SMALL));
    const s = (await alice.post(`${U}/sessions`, { filename: 'small.jpg', total_size: bytes.length, total_chunks: 1 })).body;
    const r = await postMultipart(srv, `${U}/batch`, bob.token, [{ name: `chunk_${s.session_id}_0_1`, filename: 'b', data: bytes }]);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.results[0].success, false);
    assert.equal(r.body.results[0].problem.status, 404);
    assert.equal(r.body.results[0].problem.code, 'upload_session_not_found');
    const resume = await bob.post(`${U}/sessions`, { session_id: s.session_id, filename: 'small.jpg', total_size: bytes.length, total_chunks: 1 });
    assert.equal(resume.status, 404);
    assert.equal(problem(bob, resume).code, 'upload_session_not_found');
    const unknown = await postMultipart(srv, `${U}/batch`, bob.token, [{ name: 'chunk_no-such-session_0_1', filename: 'b', data: bytes }]);
    assert.equal(unknown.body.results[0].problem.status, 404);
    // Bob's progress does not show alice's session, even when asked for it.
    const prog = await bob.get(`${U}/sessions?session_ids=${s.session_id}`);
    assert.deepEqual(prog.body.sessions, []);
    assert.equal(srv.container.uploads.store.session(s.session_id)!.received_chunks, '[]', 'nothing of bob counts');
  });

  test('session ids and field names cannot carry paths', async () => {
    for (const id of ['../../x', 'a/b', 'a_b', '..', '']) {
      const r = await alice.post(`${U}/sessions`, { session_id: id, filename: 'x.jpg', total_size: 10, total_chunks: 1 });
      assert.equal(r.status, 422, `${id}: ${r.text}`);
    }
    const r = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: 'chunk_../../etc_0_1', filename: 'b', data: Buffer.from('abc') }]);
    assert.equal(r.body.results[0].problem.code, 'bad_field_name');
    const traversal = await alice.post(`${U}/sessions`, { filename: '../../../evil.jpg', total_size: 10, total_chunks: 1 });
    assert.equal(traversal.status, 201, traversal.text);
    const evil = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${traversal.body.session_id}_0_1`, filename: '../../x', data: fs.readFileSync(src.file(SMALL)).subarray(0, 10) }]);
    // 10 bytes of a JPEG: a JPEG to detection, stored inside the repository only.
    assert.equal(evil.status, 200, evil.text);
    assert.ok(!fs.existsSync(path.join(repoPath, '..', 'evil.jpg')));
    const zero = await alice.post(`${U}/sessions`, { filename: 'zero.jpg', total_size: 0, total_chunks: 1 });
    assert.equal(zero.status, 422);
    assert.equal(problem(alice, zero).code, 'empty_file');
    const tooMany = await alice.post(`${U}/sessions`, { filename: 'x.jpg', total_size: 5, total_chunks: 6 });
    assert.equal(tooMany.status, 422);
    const badChunkSize = await alice.post(`${U}/sessions`, { filename: 'x.jpg', total_size: 100, total_chunks: 2, chunk_size: 10 });
    assert.equal(badChunkSize.status, 422);
  });

  test('a one-chunk session declared with the configured chunk size accepts its chunk', async () => {
    const bytes = fs.readFileSync(src.file(SMALL));
    const s = (await alice.post(`${U}/sessions`, { filename: 'one-chunk.jpg', total_size: bytes.length, total_chunks: 1, chunk_size: 20 * 1024 * 1024 })).body;
    const r = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${s.session_id}_0_1`, filename: 'one-chunk.jpg', data: bytes }]);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.results[0].success, true, r.text);
  });

  test('a chunk cut off mid-way is discarded and not counted', async () => {
    const bytes = fs.readFileSync(src.file(MID));
    const chunks = chunksOf(bytes, 512 * 1024);
    const s = (await alice.post(`${U}/sessions`, { filename: 'cut.jpg', total_size: bytes.length, total_chunks: chunks.length, chunk_size: 512 * 1024 })).body;
    const cut = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${s.session_id}_1_${chunks.length}`, filename: 'b', data: chunks[1]! }], { abortAfterBytes: 200_000 });
    assert.equal(cut.status, 0);
    const dir = path.join(repoPath, '.hearth/staging/sessions', s.session_id);
    await eventually(() => listFiles(dir).join() === 'data', 10_000, 'nothing but the data file in the session folder');
    const resumed = await alice.post(`${U}/sessions`, { session_id: s.session_id, filename: 'cut.jpg', total_size: bytes.length, total_chunks: chunks.length });
    assert.deepEqual(resumed.body.received_chunks, []);
    // The same for a whole-file upload cut off: nothing stays in staging, the receipt fails.
    const whole = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'file', filename: 'cut-whole.jpg', data: bytes }], { abortAfterBytes: 300_000 });
    assert.equal(whole.status, 0);
    await eventually(() => stagingFiles(repoPath).every((f) => f.startsWith('sessions/')), 10_000, 'staging to be clean');
    await eventually(() => {
      const r = srv.container.db.prepare("SELECT status FROM upload_receipts WHERE file_name = 'cut-whole.jpg'").get() as { status: string } | undefined;
      return r?.status === 'failed';
    }, 10_000, 'the receipt to fail');
    assert.ok(!fs.existsSync(path.join(repoPath, uploadFolderNow(), 'cut-whole.jpg')));
    // The session still completes afterwards (as a duplicate: mid.jpg above is the same photo).
    const fin = await sendChunks(s.session_id, chunks, chunks.map((_, i) => i));
    assert.equal(fin.body.results.at(-1).status, 'duplicate', fin.text);
    assert.ok(fin.body.results.at(-1).asset_id);
  });

  test('chunks land at their offsets in one data file; a chunk being received is not taken twice at once', async () => {
    const bytes = fs.readFileSync(src.file(MID));
    const size = 512 * 1024;
    const chunks = chunksOf(bytes, size);
    const n = chunks.length;
    const s = (await alice.post(`${U}/sessions`, { filename: 'twice.jpg', total_size: bytes.length, total_chunks: n, chunk_size: size, client_hash: await hashFile(src.file(MID)) })).body;
    const dir = path.join(repoPath, '.hearth/staging/sessions', s.session_id);
    assert.deepEqual(listFiles(dir), ['data']);
    assert.equal(fs.statSync(path.join(dir, 'data')).size, bytes.length, 'made at its full size');

    // Chunk 1 starts and stalls half-way; meanwhile a second request for chunk 1 is refused (retryable).
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = postMultipart(srv, `${U}/batch`, alice.token, [
      {
        name: `chunk_${s.session_id}_1_${n}`,
        filename: 'b',
        data: async function* () {
          yield chunks[1]!.subarray(0, 1000);
          await gate;
          yield chunks[1]!.subarray(1000);
        },
      },
    ]);
    await new Promise((r) => setTimeout(r, 100));
    // Probes with a wrong size are harmless: until chunk 1 is being received they just fail (422).
    const busy = await eventually(async () => {
      const r = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${s.session_id}_1_${n}`, filename: 'b', data: Buffer.from('probe') }]);
      return r.body.results[0].problem?.code === 'chunk_in_progress' ? r.body.results[0] : null;
    }, 30_000, 'the second request for chunk 1 to be refused');
    assert.deepEqual([busy.success, busy.problem.status, busy.problem.retryable], [false, 409, true]);
    release();
    const first = await slow;
    assert.equal(first.body.results[0].success, true, first.text);
    const data = fs.readFileSync(path.join(dir, 'data'));
    assert.ok(data.subarray(size, 2 * size).equals(chunks[1]!), 'chunk 1 at its offset');
    assert.deepEqual(listFiles(dir), ['data'], 'no file per chunk, no partial left');

    // Out of order, in one batch; the session's file is committed itself (nothing assembled).
    const rest = chunks.map((_, i) => i).filter((i) => i !== 1).reverse();
    const fin = await sendChunks(s.session_id, chunks, rest);
    const last = fin.body.results.at(-1);
    assert.equal(last.success, true, fin.text);
    assert.equal(last.content_hash, await hashFile(src.file(MID)));
    assert.ok(!fs.existsSync(dir));
  });

  test('a session stored in the old layout (one file per chunk) is taken over when it resumes', async () => {
    const bytes = fs.readFileSync(src.file(MID));
    const size = 512 * 1024;
    const chunks = chunksOf(bytes, size);
    const n = chunks.length;
    const body = { filename: 'old-layout.jpg', total_size: bytes.length, total_chunks: n, chunk_size: size };
    const s = (await alice.post(`${U}/sessions`, body)).body;
    const dir = path.join(repoPath, '.hearth/staging/sessions', s.session_id);
    fs.rmSync(path.join(dir, 'data'));
    fs.writeFileSync(path.join(dir, '0.chunk'), chunks[0]!);
    fs.writeFileSync(path.join(dir, '2.chunk'), chunks[2]!);
    fs.writeFileSync(path.join(dir, '3.chunk'), chunks[3]!.subarray(0, 10)); // cut short by a crash: dropped
    const resumed = await alice.post(`${U}/sessions`, { ...body, session_id: s.session_id });
    assert.equal(resumed.status, 200, resumed.text);
    assert.deepEqual(resumed.body.received_chunks, [0, 2]);
    assert.deepEqual(listFiles(dir), ['data']);
    const fin = await sendChunks(s.session_id, chunks, chunks.map((_, i) => i).filter((i) => i !== 0 && i !== 2));
    assert.equal(fin.body.results.at(-1).content_hash, await hashFile(src.file(MID)), fin.text);
  });

  test('a client hash that does not match the assembled file fails the session and keeps nothing', async () => {
    const bytes = fs.readFileSync(src.file(SMALL));
    const chunks = chunksOf(bytes, 64 * 1024);
    const s = (await alice.post(`${U}/sessions`, { filename: 'liar.jpg', total_size: bytes.length, total_chunks: chunks.length, client_hash: '0'.repeat(64) })).body;
    const r = await sendChunks(s.session_id, chunks, chunks.map((_, i) => i));
    const last = r.body.results.at(-1);
    assert.equal(last.success, false);
    assert.equal(last.problem.code, 'content_hash_mismatch');
    assert.ok(!fs.existsSync(path.join(repoPath, uploadFolderNow(), 'liar.jpg')));
    assert.ok(!fs.existsSync(path.join(repoPath, '.hearth/staging/sessions', s.session_id)));
    const st = (await alice.get(`${U}/receipts?receipt_ids=${s.receipt_id}`)).body.operations[0];
    assert.deepEqual([st.status, st.terminal, st.success, st.problem.code], ['failed', true, false, 'content_hash_mismatch']);
    const prog = (await alice.get(`${U}/sessions?session_ids=${s.session_id}`)).body;
    assert.equal(prog.sessions[0].status, 'failed');
    assert.equal(prog.summary.failed_sessions, 1);
  });

  test('the cleanup job fails idle sessions and removes old staging files; live ones stay', async () => {
    const bytes = fs.readFileSync(src.file(MID));
    const chunks = chunksOf(bytes, 512 * 1024);
    const idle = (await alice.post(`${U}/sessions`, { filename: 'idle.jpg', total_size: bytes.length, total_chunks: chunks.length })).body;
    const live = (await alice.post(`${U}/sessions`, { filename: 'live.jpg', total_size: bytes.length, total_chunks: chunks.length })).body;
    await sendChunks(idle.session_id, chunks, [0]);
    await sendChunks(live.session_id, chunks, [0]);
    const dayAgo = Date.now() - 25 * 3600_000;
    srv.container.db.prepare('UPDATE upload_sessions SET last_activity = ? WHERE session_id = ?').run(dayAgo, idle.session_id);
    const staging = path.join(repoPath, '.hearth/staging');
    const orphan = path.join(staging, 'orphan-from-a-crash');
    const fresh = path.join(staging, 'in-progress-elsewhere');
    fs.writeFileSync(orphan, 'x');
    fs.writeFileSync(fresh, 'y');
    fs.utimesSync(orphan, new Date(dayAgo), new Date(dayAgo));
    const oldPartial = path.join(staging, 'sessions', live.session_id, '3.abc.partial');
    fs.writeFileSync(oldPartial, 'z');
    fs.utimesSync(oldPartial, new Date(dayAgo), new Date(dayAgo));

    const { cleanStaging } = await import('../../../server/src/features/uploads/uploads.jobs.ts');
    srv.container.jobs.enqueue(cleanStaging, {});
    await srv.container.jobRunner.whenIdle();

    assert.ok(!fs.existsSync(orphan));
    assert.ok(fs.existsSync(fresh));
    assert.ok(!fs.existsSync(oldPartial));
    assert.ok(!fs.existsSync(path.join(staging, 'sessions', idle.session_id)));
    assert.ok(fs.existsSync(path.join(staging, 'sessions', live.session_id, 'data')));
    const prog = (await alice.get(`${U}/sessions?session_ids=${idle.session_id},${live.session_id}`)).body.sessions;
    assert.deepEqual(prog.map((s: { status: string }) => s.status), ['failed', 'uploading']);
    assert.equal(prog[0].problem.code, 'session_expired');
    const rc = (await alice.get(`${U}/receipts?receipt_ids=${idle.receipt_id}`)).body.operations[0];
    assert.equal(rc.status, 'failed');
    fs.rmSync(fresh);
  });

  test('the default progress view lists active and recent sessions with a summary', async () => {
    const r = await alice.get(`${V1}/uploads/sessions`);
    assert.equal(r.status, 200, r.text);
    const s = r.body.summary;
    assert.equal(s.total_sessions, r.body.sessions.length);
    assert.equal(s.total_sessions, s.active_sessions + s.completed_files + s.failed_sessions);
    assert.ok(s.completed_files >= 3);
    assert.ok(s.overall_progress > 0 && s.overall_progress <= 1);
    const bobs = await bob.get(`${V1}/uploads/sessions`);
    assert.deepEqual(bobs.body.sessions, []);
  });
});

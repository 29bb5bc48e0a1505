/**
 * Uploads cut off by a crash: the server (a child process) is killed with SIGKILL while a single
 * upload, a batch file and two chunk sessions are streaming in. The next start must leave nothing of
 * the cut-off whole files in `.hearth/staging/`, fail their receipts with the stable code
 * `upload_interrupted`, and keep the live sessions resumable (their data file stays, the chunk that
 * was arriving goes), so that they complete afterwards.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { Client, startServer, tempDataDir } from '../helpers/server.ts';
import { V1, addMember, data, login, registerAdmin } from '../helpers/api.ts';
import { CORPUS, MULTIPART_TYPE, U, listFiles, postMultipart, type Part } from '../uploads/helpers.ts';
import { kill9, openCatalog, startChild, until } from './child.ts';

const BIG = path.join(CORPUS, 'duplicates/IMG_20180725_163423.jpg'); // about 4 MB
const CHUNK = 1024 * 1024;

/** A multipart upload whose body stops after `bytes` of the file and then hangs (the connection stays open). */
function hangingUpload(url: string, p: string, token: string, field: string, filename: string, bytes: Buffer): http.ClientRequest {
  const u = new URL(`${url}${p}`);
  const boundary = MULTIPART_TYPE.split('boundary=')[1]!;
  const req = http.request({ method: 'POST', hostname: u.hostname, port: u.port, path: u.pathname, headers: { 'content-type': MULTIPART_TYPE, authorization: `Bearer ${token}` } });
  req.on('error', () => undefined); // the server is killed under it
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/jpeg\r\n\r\n`);
  req.write(bytes);
  return req;
}

test('a crash mid-upload leaves no staging behind, fails the cut-off receipts with a stable code, and keeps sessions resumable', { timeout: 300_000 }, async () => {
  const dataDir = tempDataDir('hearth-crash-upload-');
  const repoPath = path.join(dataDir, 'storage/primary');
  const staging = path.join(repoPath, '.hearth/staging');
  const bytes = fs.readFileSync(BIG);
  const chunks = Math.ceil(bytes.length / CHUNK);
  const hanging: http.ClientRequest[] = [];
  try {
    const first = await startChild(dataDir);
    const alice = new Client(first.url);
    await registerAdmin(alice);
    const bob = new Client(first.url);
    await addMember(alice, bob, 'bob');

    // Session 1 knows its chunk size and has chunk 0 stored; chunk 1 is arriving when the server dies.
    const s1 = (await bob.post(`${U}/sessions`, { filename: 'resumed.jpg', total_size: bytes.length, total_chunks: chunks, chunk_size: CHUNK })).body;
    const c0 = await postMultipart(first.url, `${U}/batch`, bob.token, [{ name: `chunk_${s1.session_id}_0_${chunks}`, filename: 'blob', data: bytes.subarray(0, CHUNK) }]);
    assert.equal(c0.status, 200, c0.text);
    assert.equal(c0.body.results[0].success, true);
    // Session 2 has not said its chunk size: its first chunk streams into a side file (`*.partial`).
    const s2 = (await bob.post(`${U}/sessions`, { filename: 'partial side file.jpg', total_size: bytes.length, total_chunks: chunks })).body;

    hanging.push(hangingUpload(first.url, `${U}/files`, bob.token!, 'file', 'single.jpg', bytes.subarray(0, 1_500_000)));
    hanging.push(hangingUpload(first.url, `${U}/batch`, bob.token!, 'single_mine-1', 'batch file.jpg', bytes.subarray(0, 1_500_000)));
    hanging.push(hangingUpload(first.url, `${U}/batch`, bob.token!, `chunk_${s1.session_id}_1_${chunks}`, 'blob', bytes.subarray(CHUNK, CHUNK + 300_000)));
    hanging.push(hangingUpload(first.url, `${U}/batch`, bob.token!, `chunk_${s2.session_id}_0_${chunks}`, 'blob', bytes.subarray(0, 300_000)));

    await until('the cut-off uploads to be in staging', () => {
      const files = listFiles(staging);
      const whole = files.filter((f) => !f.startsWith('sessions/'));
      return whole.length === 2 && files.some((f) => f.startsWith(`sessions/${s2.session_id}/`) && f.endsWith('.partial'));
    }, 60_000);
    const db = openCatalog(dataDir);
    const uploading = () => db.prepare(`SELECT receipt_id, file_name FROM upload_receipts WHERE status = 'uploading' ORDER BY file_name`).all() as { receipt_id: string; file_name: string }[];
    await until('four receipts uploading', () => uploading().length === 4);
    await kill9(first);
    const wholeReceipts = uploading().filter((r) => r.file_name === 'single.jpg' || r.file_name === 'batch file.jpg');
    assert.equal(wholeReceipts.length, 2);
    db.close();
    for (const r of hanging) r.destroy();

    // The next start.
    const srv = await startServer({ dataDir });
    try {
      assert.deepEqual(
        listFiles(staging),
        [`sessions/${s1.session_id}/data`, `sessions/${s2.session_id}/data`].sort(),
        'only the data files of the two live sessions are left in staging',
      );
      for (const variant of ['A', 'B'] as const) {
        const c = new Client(srv.url, variant);
        await login(c, 'bob');
        const r = await c.get(`${V1}/uploads/receipts?receipt_ids=${wholeReceipts.map((w) => w.receipt_id).join(',')}`);
        assert.equal(r.status, 200, r.text);
        const ops = data(c, r).operations as { status: string; terminal: boolean; success: boolean; problem: { code: string; status: number; retryable: boolean } | null }[];
        assert.equal(ops.length, 2);
        for (const o of ops) {
          assert.deepEqual([o.status, o.terminal, o.success], ['failed', true, false]);
          assert.equal(o.problem?.code, 'upload_interrupted');
          assert.equal(o.problem?.retryable, true);
        }
        const sessions = await c.get(`${U}/sessions?session_ids=${s1.session_id},${s2.session_id}`);
        assert.equal(sessions.status, 200, sessions.text);
        const states = (data(c, sessions).sessions as { session_id: string; status: string; completed_chunks: number[] }[]).map((s) => [s.session_id, s.status, s.completed_chunks]);
        assert.deepEqual(
          states.sort(),
          [
            [s1.session_id, 'uploading', [0]],
            [s2.session_id, 'pending', []],
          ].sort(),
          'the sessions are still live, with the chunks that were stored before the crash',
        );
      }

      // The sessions resume and complete: the crash cost the chunks in flight, nothing else.
      const bob2 = new Client(srv.url);
      await login(bob2, 'bob');
      for (const s of [s1, s2]) {
        const resumed = await bob2.post(`${U}/sessions`, { session_id: s.session_id, filename: s === s1 ? 'resumed.jpg' : 'partial side file.jpg', total_size: bytes.length, total_chunks: chunks });
        assert.equal(resumed.status, 200, resumed.text);
        const missing = Array.from({ length: chunks }, (_, i) => i).filter((i) => !resumed.body.received_chunks.includes(i));
        const parts: Part[] = missing.map((i) => ({ name: `chunk_${s.session_id}_${i}_${chunks}`, filename: 'blob', data: bytes.subarray(i * CHUNK, (i + 1) * CHUNK) }));
        const sent = await postMultipart(srv.url, `${U}/batch`, bob2.token, parts);
        assert.equal(sent.status, 200, sent.text);
        assert.ok(sent.body.results.every((r: { success: boolean }) => r.success), sent.text);
      }
      const bobId = (srv.container.db.prepare(`SELECT user_id FROM users WHERE username = 'bob'`).get() as { user_id: number }).user_id;
      await until('the two sessions catalogued', () => srv.container.db.prepare(`SELECT count(*) FROM upload_sessions WHERE status = 'completed'`).pluck().get() === 2);
      const owners = srv.container.db.prepare(`SELECT DISTINCT owner_id FROM assets`).pluck().all();
      assert.deepEqual(owners, [bobId]);
      assert.deepEqual(listFiles(staging), [], 'staging is empty once the sessions completed');
    } finally {
      await srv.stop();
    }
  } finally {
    for (const r of hanging) r.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

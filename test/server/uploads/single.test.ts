/**
 * Single-file and batch uploads over real HTTP: the file lands under uploads/YYYY/MM with a receipt
 * that reaches `completed`; a wrong X-Content-Hash keeps nothing; duplicates (also concurrent ones)
 * are stored once; names cannot escape the repository; bad input gets the right problem; nothing is
 * left in staging afterwards.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { Client, type TestServer } from '../helpers/server.ts';
import { V1, data, problem } from '../helpers/api.ts';
import {
  U,
  copyCorpus,
  startUploadServer,
  stopUploadServer,
  eventually,
  filesWithHash,
  postMultipart,
  repoMediaFiles,
  stagingFiles,
  uploadFile,
  uploadFolderNow,
  type Part,
} from './helpers.ts';

const PHOTO = 'gps/DSCN0010.jpg';
const PHOTO2 = 'gps/DSCN0012.jpg';
const PHOTO3 = 'exif/Canon_40D.jpg';
const PHOTO4 = 'gps/big_ben.jpg';
const PHOTO5 = 'gps/DSCN0021.jpg';

describe('single and batch uploads', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  let repoPath: string;
  let src: ReturnType<typeof copyCorpus>;

  before(async () => void ({ src, srv, alice, bob, repoPath } = await startUploadServer([PHOTO, PHOTO2, PHOTO3, PHOTO4, PHOTO5])));
  after(() => stopUploadServer(srv, src));

  test('a single upload is stored under uploads/YYYY/MM, hashed, catalogued, and its receipt completes', async () => {
    const file = src.file(PHOTO);
    const hash = await hashFile(file);
    const r = await uploadFile(srv, alice.token!, file, { hash });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'processing');
    assert.equal(r.body.content_hash, hash);
    assert.equal(r.body.size, fs.statSync(file).size);
    assert.equal(r.body.file_name, 'DSCN0010.jpg');
    assert.match(r.body.receipt_id, /^[0-9a-f-]{36}$/);
    assert.ok(r.body.asset_id);
    const stored = path.join(repoPath, uploadFolderNow(), 'DSCN0010.jpg');
    assert.ok(fs.existsSync(stored), 'committed under uploads/YYYY/MM');
    assert.equal(await hashFile(stored), hash);
    assert.deepEqual(stagingFiles(repoPath), [], 'nothing left in staging');

    const rs = await alice.get(`${V1}/uploads/receipts?receipt_ids=${r.body.receipt_id}`);
    assert.equal(rs.status, 200, rs.text);
    assert.equal(rs.body.operations.length, 1);
    assert.equal(rs.body.operations[0].receipt_id, r.body.receipt_id);
    assert.equal(rs.body.operations[0].file_name, 'DSCN0010.jpg');
    assert.ok(['processing', 'completed'].includes(rs.body.operations[0].status));

    await srv.container.jobRunner.whenIdle();
    const done = await eventually(async () => {
      const o = (await alice.get(`${V1}/uploads/receipts?receipt_ids=${r.body.receipt_id}`)).body.operations[0];
      return o.terminal ? o : null;
    }, 60_000, 'the receipt to complete');
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.success, true);
    assert.equal(done.asset_id, r.body.asset_id);
    const asset = data(alice, await alice.get(`${V1}/assets/${r.body.asset_id}`));
    assert.equal(asset.original_filename, 'DSCN0010.jpg');
    assert.equal(asset.hash, hash);

    // Receipts are private: bob sees none of alice's; unknown ids are simply absent.
    const foreign = await bob.get(`${V1}/uploads/receipts?receipt_ids=${r.body.receipt_id},00000000-0000-7000-8000-000000000000`);
    assert.equal(foreign.status, 200);
    assert.deepEqual(foreign.body.operations, []);
  });

  test('a wrong X-Content-Hash answers 422 and keeps nothing', async () => {
    const before = repoMediaFiles(repoPath);
    const assetsBefore = srv.container.db.prepare('SELECT count(*) AS n FROM assets').get() as { n: number };
    const r = await uploadFile(srv, alice.token!, src.file(PHOTO2), { hash: 'ab'.repeat(32) });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.code, 'content_hash_mismatch');
    assert.match(r.headers['content-type'] ?? '', /application\/problem\+json/);
    assert.deepEqual(repoMediaFiles(repoPath), before);
    assert.deepEqual(stagingFiles(repoPath), []);
    assert.deepEqual(srv.container.db.prepare('SELECT count(*) AS n FROM assets').get(), assetsBefore);
    const receipt = srv.container.db.prepare("SELECT status, problem FROM upload_receipts WHERE file_name = 'DSCN0012.jpg'").get() as { status: string; problem: string };
    assert.equal(receipt.status, 'failed');
    assert.equal(JSON.parse(receipt.problem).code, 'content_hash_mismatch');
    // A malformed hash header is a validation error before anything is read.
    const bad = await uploadFile(srv, alice.token!, src.file(PHOTO2), { hash: 'xyz' });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.errors[0].field, 'header.x-content-hash');
  });

  test('a duplicate is reported with the uploader’s existing asset and stored once', async () => {
    const file = src.file(PHOTO3);
    const hash = await hashFile(file);
    const first = await uploadFile(srv, alice.token!, file);
    assert.equal(first.body.status, 'processing', first.text);
    const second = await uploadFile(srv, alice.token!, file, { name: 'renamed.jpg' });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.status, 'duplicate');
    assert.equal(second.body.asset_id, first.body.asset_id);
    assert.notEqual(second.body.receipt_id, first.body.receipt_id);
    assert.equal((await filesWithHash(repoPath, hash)).length, 1);
    assert.deepEqual(stagingFiles(repoPath), []);
    const o = (await alice.get(`${V1}/uploads/receipts?receipt_ids=${second.body.receipt_id}`)).body.operations[0];
    assert.deepEqual([o.status, o.terminal, o.success, o.asset_id], ['duplicate', true, true, first.body.asset_id]);
    // Another member uploading the same content gets an asset of their own (per-owner.test.ts).
    const byBob = await uploadFile(srv, bob.token!, file);
    assert.equal(byBob.body.status, 'processing', byBob.text);
    assert.notEqual(byBob.body.asset_id, first.body.asset_id);

    // precheck (advisory) knows alice has it, bob does not.
    const pa = await alice.post(`${V1}/uploads/precheck`, { files: [{ hash, size: fs.statSync(file).size, file_name: 'x.jpg' }, { hash: 'cd'.repeat(32), size: 5 }] });
    assert.equal(pa.status, 200, pa.text);
    assert.equal(pa.body.duplicate_count, 1);
    assert.deepEqual(pa.body.results.map((x: { duplicate: boolean; candidate: boolean }) => [x.duplicate, x.candidate]), [[true, false], [false, true]]);
    assert.equal(pa.body.results[0].asset_id, first.body.asset_id);
    const pb = await bob.post(`${V1}/uploads/precheck`, { files: [{ hash, size: fs.statSync(file).size }] });
    assert.equal(pb.body.duplicate_count, 1);
    assert.equal(pb.body.results[0].asset_id, byBob.body.asset_id);
  });

  test('concurrent uploads of the same file end with one stored copy', async () => {
    const file = src.file(PHOTO4);
    const hash = await hashFile(file);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => uploadFile(srv, alice.token!, file, { name: `same-${i}.jpg` })));
    for (const a of answers) assert.equal(a.status, 200, a.text);
    const statuses = answers.map((a) => a.body.status).sort();
    assert.deepEqual(statuses, ['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'processing']);
    const assetIds = new Set(answers.map((a) => a.body.asset_id));
    assert.equal(assetIds.size, 1, 'every answer names the one asset');
    assert.equal((await filesWithHash(repoPath, hash)).length, 1);
    assert.deepEqual(stagingFiles(repoPath), []);
  });

  test('file names cannot leave the repository; name clashes get (1), (2)', async () => {
    const file = src.file(PHOTO5);
    const bytes = fs.readFileSync(file);
    const folder = uploadFolderNow();
    const names = ['../../../../evil.jpg', '..\\..\\windows.jpg', '/etc/passwd.jpg', 'sub/dir/.hidden.jpg'];
    for (const [i, name] of names.entries()) {
      // Different content each time (a trailing byte), so nothing is a duplicate.
      const parts: Part[] = [{ name: 'file', filename: name, data: Buffer.concat([bytes, Buffer.from([i])]) }];
      const r = await postMultipart(srv, `${U}/files`, alice.token, parts);
      assert.equal(r.status, 200, `${name}: ${r.text}`);
      assert.ok(!r.body.file_name.includes('/') && !r.body.file_name.includes('\\') && !r.body.file_name.startsWith('.'), r.body.file_name);
    }
    const mine = repoMediaFiles(repoPath).filter((f) => /evil|windows|passwd|hidden/.test(f));
    assert.deepEqual(mine.sort(), [`${folder}/evil.jpg`, `${folder}/hidden.jpg`, `${folder}/passwd.jpg`, `${folder}/windows.jpg`]);
    const dataDir = srv.dataDir;
    for (const escaped of ['evil.jpg', 'windows.jpg']) {
      assert.ok(!fs.existsSync(path.join(repoPath, '..', escaped)) && !fs.existsSync(path.join(dataDir, '..', escaped)), escaped);
    }
    // Names that are no name at all: "..", and a NUL smuggled in through RFC 5987 encoding.
    for (const disp of ['form-data; name="file"; filename=".."', `form-data; name="file"; filename*=UTF-8''bad%00name.jpg`]) {
      const r = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'file', filename: '', rawDisposition: disp, data: bytes }]);
      assert.equal(r.status, 422, `${disp}: ${r.text}`);
      assert.equal(r.body.code, 'bad_file_name');
    }
    // The same name again, different content: numbered, the first untouched.
    for (let i = 0; i < 2; i++) {
      const r = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'file', filename: 'evil.jpg', data: Buffer.concat([bytes, Buffer.from([100 + i])]) }]);
      assert.equal(r.status, 200, r.text);
    }
    assert.ok(fs.existsSync(path.join(repoPath, folder, 'evil (1).jpg')));
    assert.ok(fs.existsSync(path.join(repoPath, folder, 'evil (2).jpg')));
    assert.deepEqual(fs.readFileSync(path.join(repoPath, folder, 'evil.jpg')), Buffer.concat([bytes, Buffer.from([0])]));
    assert.deepEqual(stagingFiles(repoPath), []);
  });

  test('zero-byte files, missing file parts, wrong content types, too many fields and oversize files are refused', async () => {
    const before = repoMediaFiles(repoPath);
    const zero = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'file', filename: 'empty.jpg', data: Buffer.alloc(0) }]);
    assert.equal(zero.status, 422, zero.text);
    assert.equal(zero.body.code, 'empty_file');

    const noFile = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'repository_id', value: srv.container.repositories.primary()!.repository_id }]);
    assert.equal(noFile.status, 422, noFile.text);
    assert.equal(noFile.body.code, 'file_missing');

    const wrongField = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'photo', filename: 'a.jpg', data: Buffer.from('abc') }]);
    assert.equal(wrongField.status, 422, wrongField.text);

    const notMultipart = await alice.req('POST', `${U}/files`, { body: 'hello', headers: { 'content-type': 'text/plain' } });
    assert.equal(notMultipart.status, 415, notMultipart.text);
    assert.equal(problem(alice, notMultipart).code, 'unsupported_content_type');

    const garbage = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'file', filename: 'notes.jpg', data: Buffer.from('just some text, not a photo') }]);
    assert.equal(garbage.status, 415, garbage.text);
    assert.equal(garbage.body.code, 'unsupported_media_type');

    const fields: Part[] = Array.from({ length: 60 }, (_, i) => ({ name: `f${i}`, value: 'x' }));
    const tooMany = await postMultipart(srv, `${U}/batch`, alice.token, fields);
    assert.equal(tooMany.status, 413, tooMany.text);

    const unknownRepo = await postMultipart(srv, `${U}/files`, alice.token, [
      { name: 'repository_id', value: '00000000-0000-4000-8000-000000000000' },
      { name: 'file', filename: 'a.jpg', data: fs.readFileSync(src.file(PHOTO)) },
    ]);
    assert.equal(unknownRepo.status, 404, unknownRepo.text);
    assert.equal(unknownRepo.body.code, 'repository_not_found');

    const limits = srv.container.uploads.limits;
    const saved = limits.maxFileBytes;
    limits.maxFileBytes = 10_000;
    try {
      const big = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'file', filename: 'big.jpg', data: Buffer.alloc(50_000, 1) }]);
      assert.equal(big.status, 413, big.text);
      assert.equal(big.body.code, 'payload_too_large');
      const session = await alice.post(`${U}/sessions`, { filename: 'big.mov', total_size: 20_000, total_chunks: 2 });
      assert.equal(session.status, 413, session.text);
    } finally {
      limits.maxFileBytes = saved;
    }
    assert.deepEqual(repoMediaFiles(repoPath), before);
    assert.deepEqual(stagingFiles(repoPath), []);
  });

  test('anonymous callers get 401; JSON answers are enveloped in variant B', async () => {
    const anon = new Client(srv.url);
    for (const [m, p] of [
      ['GET', '/config'],
      ['GET', '/sessions'],
      ['POST', '/sessions'],
      ['POST', '/precheck'],
      ['GET', '/receipts?receipt_ids=x'],
      ['GET', '/receipts/stream?receipt_ids=x'],
    ] as const) {
      const r = await anon.req(m, `${U}${p}`, m === 'POST' ? { json: {} } : {});
      assert.equal(r.status, 401, `${m} ${p}: ${r.text}`);
    }
    const up = await postMultipart(srv, `${U}/files`, null, [{ name: 'file', filename: 'a.jpg', data: Buffer.from('x') }]);
    assert.equal(up.status, 401);
    const batch = await postMultipart(srv, `${U}/batch`, null, [{ name: 'single_a', filename: 'a.jpg', data: Buffer.from('x') }]);
    assert.equal(batch.status, 401);

    const cfg = await alice.get(`${U}/config`);
    assert.equal(cfg.status, 200);
    for (const k of ['chunk_size', 'max_concurrent', 'max_in_flight_requests', 'memory_buffer', 'merge_concurrency']) assert.ok(Number.isInteger(cfg.body[k]) && cfg.body[k] > 0, k);
    assert.ok([2, 5, 10, 20].map((m) => m * 1024 * 1024).includes(cfg.body.chunk_size));
    const b = new Client(srv.url, 'B');
    b.token = alice.token;
    assert.deepEqual(data(b, await b.get(`${U}/config`)), cfg.body);
    const bUp = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'file', filename: 'empty.jpg', data: Buffer.alloc(0) }], { headers: { 'x-api-variant': 'B' } });
    assert.equal(bUp.status, 422);
    assert.equal(bUp.body.code, 422);
    assert.equal(bUp.body.error, 'empty_file');
  });

  test('a batch takes several whole files, each with its own result', async () => {
    const a = fs.readFileSync(src.file(PHOTO));
    const parts: Part[] = [
      { name: 'repository_id', value: srv.container.repositories.primary()!.repository_id },
      { name: 'single_one', filename: 'batch-a.jpg', data: Buffer.concat([a, Buffer.from('batch-a')]) },
      { name: 'single_two', filename: 'batch-b.jpg', data: Buffer.alloc(0) },
      { name: 'weird_name', filename: 'batch-c.jpg', data: a },
      { name: 'single_three', filename: 'batch-d.jpg', data: Buffer.concat([a, Buffer.from('batch-a')]) },
    ];
    const r = await postMultipart(srv, `${U}/batch`, alice.token, parts);
    assert.equal(r.status, 200, r.text);
    const res = r.body.results;
    assert.equal(res.length, 4);
    assert.deepEqual(res.map((x: { session_id: string }) => x.session_id), ['one', 'two', 'weird_name', 'three']);
    assert.deepEqual(res.map((x: { success: boolean }) => x.success), [true, false, false, true]);
    assert.equal(res[0].status, 'processing');
    assert.equal(res[1].problem.code, 'empty_file');
    assert.equal(res[1].problem.status, 422);
    assert.equal(res[2].problem.code, 'bad_field_name');
    assert.equal(res[3].status, 'duplicate');
    assert.equal(res[3].asset_id, res[0].asset_id);
    const late = await postMultipart(srv, `${U}/batch`, alice.token, [
      { name: 'single_x', filename: 'x.jpg', data: a },
      { name: 'repository_id', value: srv.container.repositories.primary()!.repository_id },
    ]);
    assert.equal(late.status, 422, late.text);
    assert.deepEqual(stagingFiles(repoPath), []);
  });
});

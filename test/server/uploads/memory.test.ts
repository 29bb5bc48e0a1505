/**
 * Uploads stream: a ~200 MB file goes through the server (multipart parse, BLAKE3, write to
 * staging) while the process's resident memory grows by a small fraction of the file. The client
 * lives in the same process and streams from a generator, so the whole measurement is bounded only
 * if the server never holds the body.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createContentHasher } from '../../../server/src/adapters/media/hash.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { registerAdmin } from '../helpers/api.ts';
import { U, postMultipart, stagingFiles, uploadFolderNow } from './helpers.ts';

const SIZE = 200 * 1024 * 1024;
const BLOCK = 1024 * 1024;

/** A JPEG-looking head and then pseudo-random blocks: a distinct byte stream nobody has to store. */
function generated(seed: number): () => AsyncGenerator<Buffer> {
  return async function* () {
    const block = crypto.createHash('sha256').update(String(seed)).digest();
    const base = Buffer.alloc(BLOCK);
    for (let i = 0; i < BLOCK; i += block.length) block.copy(base, i);
    base.set([0xff, 0xd8, 0xff, 0xe0], 0);
    for (let sent = 0; sent < SIZE; sent += BLOCK) {
      const b = Buffer.from(base);
      b.writeUInt32BE(sent / BLOCK, 8); // every block differs
      yield b;
    }
  };
}

async function hashOf(gen: () => AsyncGenerator<Buffer>): Promise<string> {
  const h = await createContentHasher();
  for await (const b of gen()) h.update(b);
  return h.digest();
}

function sampleRss(): { stop: () => number } {
  let peak = process.memoryUsage.rss();
  const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  return {
    stop: () => {
      clearInterval(t);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

describe('upload memory stays bounded', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;

  before(async () => {
    srv = await startServer();
    alice = new Client(srv.url);
    await registerAdmin(alice);
    // Warm up: the first chunked session starts the hashing worker thread (a V8 isolate, some tens
    // of MB once per process), which is not what this test measures; whole uploads hash inline.
    const warm = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'file', filename: 'warm.jpg', data: Buffer.alloc(3 * 1024 * 1024, 1) }], { headers: { 'x-content-hash': 'f'.repeat(64) } });
    assert.equal(warm.status, 422);
    const ws = (await alice.post(`${U}/sessions`, { filename: 'warm.jpg', total_size: 2 * 1024 * 1024, total_chunks: 2, client_hash: 'f'.repeat(64) })).body;
    for (const i of [0, 1]) {
      const r = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${ws.session_id}_${i}_2`, filename: 'blob', data: Buffer.alloc(1024 * 1024, 2) }]);
      assert.equal(r.status, 200, r.text);
    }
  });
  after(() => srv.stop({ removeData: true }));

  test('a 200 MB single upload is hashed and staged without holding it in memory', async () => {
    const repoPath = srv.container.repositories.primary()!.path;
    const gen = generated(1);
    const hash = await hashOf(gen);
    global.gc?.();
    const base = process.memoryUsage.rss();
    const sampler = sampleRss();
    const started = performance.now();
    // With a wrong X-Content-Hash the server streams, hashes and stages all 200 MB and then keeps nothing:
    // the whole receive path without leaving a 200 MB asset for the pipeline.
    const r = await postMultipart(srv, `${U}/files`, alice.token, [{ name: 'file', filename: 'huge.jpg', data: gen }], { headers: { 'x-content-hash': 'f'.repeat(64) } });
    const seconds = (performance.now() - started) / 1000;
    const peak = sampler.stop();
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.code, 'content_hash_mismatch');
    assert.match(r.body.detail, /does not match/);
    const grew = peak - base;
    console.log(`# 200 MB upload: ${(SIZE / 1e6 / seconds).toFixed(0)} MB/s, RSS grew ${(grew / 1e6).toFixed(1)} MB (base ${(base / 1e6).toFixed(0)} MB)`);
    assert.ok(grew < SIZE / 4, `RSS grew by ${(grew / 1e6).toFixed(1)} MB for a ${SIZE / 1e6} MB upload`);
    assert.deepEqual(stagingFiles(repoPath), []);
    assert.ok(!fs.existsSync(path.join(repoPath, uploadFolderNow(), 'huge.jpg')));
    assert.notEqual(hash, 'f'.repeat(64));
  });

  test('the same bytes as 20 MiB chunks: each chunk streams to its own file, the merge streams too', async () => {
    const repoPath = srv.container.repositories.primary()!.path;
    const gen = generated(2);
    const chunk = 20 * 1024 * 1024;
    const total = Math.ceil(SIZE / chunk);
    const s = await alice.post(`${U}/sessions`, { filename: 'huge-chunked.jpg', total_size: SIZE, total_chunks: total, client_hash: '0'.repeat(64) });
    assert.equal(s.status, 201, s.text);
    global.gc?.();
    const base = process.memoryUsage.rss();
    const sampler = sampleRss();
    // Slice the generated stream into chunk requests without ever holding more than one block.
    const it = gen();
    for (let i = 0; i < total; i++) {
      const part = async function* () {
        for (let got = 0; got < chunk; got += BLOCK) {
          const n = await it.next();
          if (n.done) return;
          yield n.value;
        }
      };
      const r = await postMultipart(srv, `${U}/batch`, alice.token, [{ name: `chunk_${s.body.session_id}_${i}_${total}`, filename: 'blob', data: part }]);
      assert.equal(r.status, 200, r.text);
      const res = r.body.results[0];
      if (i < total - 1) assert.equal(res.success, true, JSON.stringify(res));
      else assert.equal(res.problem?.code, 'content_hash_mismatch', 'the merge hashed all 200 MB and refused them');
    }
    const grew = sampler.stop() - base;
    console.log(`# 200 MB chunked upload: RSS grew ${(grew / 1e6).toFixed(1)} MB`);
    assert.ok(grew < SIZE / 4, `RSS grew by ${(grew / 1e6).toFixed(1)} MB`);
    assert.deepEqual(stagingFiles(repoPath), []);
  });
});

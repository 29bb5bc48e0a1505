/**
 * The intake's hashing (uploads, scans, the watcher): the native BLAKE3 (@napi-rs/blake-hash) is what uploads use here, gives exactly
 * the digests of hash-wasm (the catalog's hash, adapters/media/hash.ts), and hash-wasm takes over
 * when the native module cannot load. The ways uploads hash files (inline in the sink, the worker
 * that reads a file back as it is written, its main-thread fallback) agree with hashFile.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createBLAKE3 } from 'hash-wasm';
import { hashBytes, hashFile } from '../../../server/src/adapters/media/hash.ts';
import { blake3Backend, createBlake3, createNativeBlake3, nativeBlake3Error, type NativeLoader } from '../../../server/src/features/intake/blake3.ts';
import { HashPool, inThread } from '../../../server/src/features/intake/file-hasher.ts';
import { Intake } from '../../../server/src/features/intake/index.ts';

async function wasmHex(data: Uint8Array): Promise<string> {
  const h = await createBLAKE3();
  h.init();
  h.update(data);
  return h.digest('hex');
}

describe('upload BLAKE3', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-blake3-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the native module loads on this platform (uploads would hash at wasm speed otherwise)', () => {
    assert.equal(blake3Backend(), 'native', `native BLAKE3 did not load: ${nativeBlake3Error()?.message}`);
  });

  test('native digests are exactly hash-wasm digests, however the bytes are split', async () => {
    const data = crypto.randomBytes(3 * 1024 * 1024 + 77);
    for (const size of [0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 4097, 65_536, 1024 * 1024 + 1, data.length]) {
      const bytes = data.subarray(0, size);
      const native = createNativeBlake3()!;
      let at = 0;
      for (const piece of [1, 7, 1024, 65_536, 333_333]) {
        if (at >= size) break;
        native.update(bytes.subarray(at, Math.min(size, at + piece)));
        at += piece;
      }
      if (at < size) native.update(bytes.subarray(at));
      const want = await wasmHex(bytes);
      assert.equal(native.digest(), want, `${size} bytes`);
      assert.equal(await hashBytes(bytes), want, 'the catalog hash agrees');
    }
    // The specification's vector for the empty input.
    assert.equal(createNativeBlake3()!.digest(), 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
  });

  test('without the native module (or with a wrong one), hash-wasm takes over with the same digests', async () => {
    const missing: NativeLoader = () => {
      throw new Error('Cannot find module @napi-rs/blake-hash-linux-x64-gnu');
    };
    const wrong: NativeLoader = () =>
      class {
        update() {
          return this;
        }
        digest() {
          return '0'.repeat(64);
        }
      };
    const data = crypto.randomBytes(200_000);
    for (const loader of [missing, wrong]) {
      assert.equal(blake3Backend(loader), 'wasm');
      assert.equal(createNativeBlake3(loader), null);
      const h = await createBlake3(loader);
      h.update(data.subarray(0, 5));
      h.update(data.subarray(5));
      assert.equal(h.digest(), await wasmHex(data));
    }
    assert.equal(blake3Backend(), 'native', 'the failed loaders changed nothing for uploads');
  });

  test('a file is hashed as it is written: the worker, its main-thread fallback, and the sink agree with hashFile', async () => {
    const data = crypto.randomBytes(9 * 1024 * 1024 + 12_345);
    const file = path.join(dir, 'grows.bin');
    const want = await wasmHex(data);
    const intake = new Intake(new HashPool(1));
    const hashers = [(f: string) => new HashPool(1).open(f), (f: string) => new HashPool(1, null).open(f), inThread, (f: string) => intake.follow(f)];
    for (const open of hashers) {
      fs.writeFileSync(file, '');
      const h = open(file);
      const fd = fs.openSync(file, 'r+');
      for (let at = 0; at < data.length; at += 1_500_000) {
        const end = Math.min(data.length, at + 1_500_000);
        fs.writeSync(fd, data, at, end - at, at);
        h.advance(end); // bytes are on their way: hash them meanwhile
      }
      fs.closeSync(fd);
      assert.equal((await h.digest(data.length)).hex, want);
    }
    assert.equal(await hashFile(file), want);
    const whole = await intake.hashFile(file, data.length);
    assert.deepEqual(whole, { hash: want, backend: 'native', where: 'worker' }, 'a file on disk: native BLAKE3 on the worker');

    // Whole uploads hash inline while the sink writes (the native path here).
    const staged = path.join(dir, 'staged.bin');
    const got = await intake.receive(Readable.from([data.subarray(0, 10), data.subarray(10, 3_000_000), data.subarray(3_000_000)]), staged, data.length);
    assert.equal(got.hash, want);
    assert.equal(got.size, data.length);
    assert.ok(fs.readFileSync(staged).equals(data));
  });

  test('a file shorter than announced fails its digest instead of hashing garbage', async () => {
    const file = path.join(dir, 'short.bin');
    fs.writeFileSync(file, crypto.randomBytes(1000));
    for (const pool of [new HashPool(1), new HashPool(1, null)]) {
      await assert.rejects(pool.open(file).digest(5000), /ends at 1000 bytes/);
    }
    await assert.rejects(inThread(file).digest(5000), /ends at 1000 bytes/);
    await assert.rejects(new Intake(new HashPool(1)).hashFile(file, 5000), /ends at 1000 bytes/);
  });
});

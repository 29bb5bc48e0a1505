import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createContentHasher, hashBytes, hashFile, HASH_READ_BYTES } from '../../../server/src/adapters/media/hash.ts';
import { corpusPath, tempDir } from './corpus.ts';

describe('BLAKE3 content hash', () => {
  test('matches the official BLAKE3 test vectors', async () => {
    assert.equal(await hashBytes(new Uint8Array(0)), 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
    assert.equal(await hashBytes(Buffer.from('abc')), '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
  });

  test('incremental hashing in arbitrary chunks equals hashing the whole', async () => {
    const data = Buffer.alloc(3 * HASH_READ_BYTES + 12345);
    for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
    const h = await createContentHasher();
    for (let at = 0, step = 1; at < data.length; at += step, step = (step * 7 + 13) % 300_000 || 1) h.update(data.subarray(at, at + step));
    assert.equal(h.bytes, data.length);
    assert.equal(h.digest(), await hashBytes(data));
    assert.throws(() => h.digest(), /already finished/);
    assert.throws(() => h.update(data), /already finished/);
  });

  test('hashFile streams a file to the same digest (multi-MiB real photo)', async () => {
    const file = corpusPath('duplicates', 'IMG_20180725_163423.jpg'); // 4 MB: several 1 MiB reads
    assert.equal(await hashFile(file), await hashBytes(fs.readFileSync(file)));
  });

  test('exact duplicates hash equal, different bytes hash differently', async () => {
    const a = await hashFile(corpusPath('duplicates', 'exact_el_torcal_rocks.jpg'));
    const b = await hashFile(corpusPath('duplicates', 'exact_el_torcal_rocks_copy.jpeg'));
    const c = await hashFile(corpusPath('duplicates', 'tanners_ridge.jpg'));
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  test('concurrent hashers do not share state', async () => {
    const [h1, h2] = await Promise.all([createContentHasher(), createContentHasher()]);
    h1.update(Buffer.from('ab'));
    h2.update(Buffer.from('xy'));
    h1.update(Buffer.from('c'));
    assert.equal(h1.digest(), await hashBytes(Buffer.from('abc')));
    assert.equal(h2.digest(), await hashBytes(Buffer.from('xy')));
  });

  test('empty file', async () => {
    const dir = tempDir('hash');
    const f = path.join(dir, 'empty.bin');
    fs.writeFileSync(f, '');
    assert.equal(await hashFile(f), 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
  });
});

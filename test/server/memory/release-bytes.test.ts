/**
 * Large buffers are freed at the point their last reader is done (platform/cache/release-bytes.ts), not at the
 * next full collection: a Takeout import's extractions and the thumbnails beside it otherwise pile up tens of
 * MB of dead bytes. Shown on what the server really releases: Node's own buffers (a file read whole, zlib's
 * output), sharp's output buffers (freed by sharp's finaliser, a turn later), and what must never be released
 * (a slice of Node's shared pool, a view into a larger buffer).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { test } from 'node:test';
import sharp from 'sharp';
import { releaseBytes, releaseOnlyView } from '../../../server/src/platform/cache/release-bytes.ts';
import { withOpenedImage } from '../../../server/src/adapters/media/image-source.ts';
import { generateThumbnails } from '../../../server/src/adapters/media/thumbnails.ts';
import { corpusPath, tempDir } from '../media/corpus.ts';

const mb = (n: number) => n / 1024 / 1024;
const arrayBuffersMb = () => mb(process.memoryUsage().arrayBuffers);
const externalMb = () => mb(process.memoryUsage().external);

test("a buffer that owns its memory is freed at once; the bytes are gone, Node's count drops", () => {
  const before = arrayBuffersMb();
  const big = Buffer.allocUnsafe(32 * 1024 * 1024).fill(7);
  assert.ok(arrayBuffersMb() - before > 31);
  releaseBytes(big);
  assert.equal(big.length, 0, 'the released buffer reads as empty');
  assert.ok(arrayBuffersMb() - before < 1, `32 MB freed without a collection (${(arrayBuffersMb() - before).toFixed(1)} MB left)`);
  releaseBytes(big, null, undefined); // twice, or nothing: no error
});

test("a slice of Node's shared pool, a view into a larger buffer and small buffers are left alone", () => {
  const pooled = Buffer.from('a short string comes from the shared pool');
  const neighbour = Buffer.from('its neighbour in the same pool');
  assert.equal(pooled.buffer, neighbour.buffer, 'both are slices of one pool');
  releaseBytes(pooled);
  assert.equal(neighbour.toString(), 'its neighbour in the same pool');
  assert.equal(pooled.toString(), 'a short string comes from the shared pool');

  const whole = Buffer.alloc(1024 * 1024, 1);
  const middle = whole.subarray(1000, 200_000);
  releaseBytes(middle);
  releaseOnlyView(middle); // not at the start of its buffer: not the only view, whatever the caller says
  assert.equal(whole.length, 1024 * 1024);
  assert.equal(middle.length, 199_000);

  const small = Buffer.alloc(32 * 1024, 2);
  releaseBytes(small);
  assert.equal(small.length, 32 * 1024, 'below 64 KB the collector does it: not worth a detach');
});

test("zlib's inflated output (a view at the start of a buffer one byte larger) is freed by releaseOnlyView", async () => {
  const original = Buffer.alloc(4 * 1024 * 1024, 'photo');
  const packed = zlib.deflateRawSync(original);
  const inflated = await promisify(zlib.inflateRaw)(packed, { maxOutputLength: original.length, chunkSize: original.length + 1 });
  assert.ok(inflated.equals(original));
  const before = arrayBuffersMb();
  releaseBytes(inflated);
  assert.equal(inflated.length, original.length, 'releaseBytes alone does not touch a view that does not cover its buffer');
  releaseOnlyView(inflated);
  assert.equal(inflated.length, 0);
  assert.ok(before - arrayBuffersMb() > 3.9, 'the 4 MB are freed');
});

test("sharp's output buffers are freed too (by sharp's finaliser, one turn later)", async () => {
  const raws = await Promise.all([0, 1, 2].map(() => sharp({ create: { width: 2000, height: 2000, channels: 3, background: 'red' } }).raw().toBuffer()));
  const before = externalMb();
  releaseBytes(...raws);
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(before - externalMb() > 30, `36 MB of pixels freed (${(before - externalMb()).toFixed(1)} MB)`);
});

test('an opened photo gives back its bytes after its one output; thumbnails made after releases are the same', async () => {
  const file = corpusPath('exif', 'Olympus_E-P3.jpg');
  const first = await withOpenedImage(file, {}, ({ pipeline }) => pipeline.resize(64, 64, { fit: 'inside' }).raw().toBuffer());
  const again = await withOpenedImage(file, {}, ({ pipeline }) => pipeline.resize(64, 64, { fit: 'inside' }).raw().toBuffer());
  assert.ok(first.length > 0 && first.equals(again));
  const dir = tempDir('release-bytes-');
  const made = async (n: number) => {
    const targets = { small: path.join(dir, `${n}-small.webp`), medium: path.join(dir, `${n}-medium.webp`), large: path.join(dir, `${n}-large.webp`) };
    const r = await generateThumbnails(file, targets, { phash: true });
    return { phash: r.phash, bytes: Object.values(targets).map((t) => fs.readFileSync(t)) };
  };
  const a = await made(1);
  const b = await made(2);
  assert.match(a.phash ?? '', /^[0-9a-f]{16}$/);
  assert.equal(a.phash, b.phash);
  for (const [i, bytes] of a.bytes.entries()) {
    assert.ok(bytes.length > 100 && bytes.subarray(8, 12).toString() === 'WEBP', 'a whole WebP file is written, not an emptied buffer');
    assert.ok(bytes.equals(b.bytes[i]!));
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

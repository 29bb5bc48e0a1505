import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { MediaDecodeError } from '../../../server/src/adapters/media/errors.ts';
import { decodeHeic, heicDecoderWorkers, shutdownHeicDecoder } from '../../../server/src/adapters/media/heic.ts';
import { corpusPath, tempDir } from './corpus.ts';

describe('HEIC decoding in a worker thread', () => {
  after(() => shutdownHeicDecoder());

  test('a 12 MP iPhone HEIC decodes upright while the event loop keeps running', async (t) => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const started = performance.now();
    const img = await decodeHeic(corpusPath('heic', 'IMG_2682.heic'));
    const ms = performance.now() - started;
    clearInterval(timer);
    t.diagnostic(`IMG_2682.heic 4032×3024: ${ms.toFixed(0)} ms (worker start included), ${ticks} timer ticks meanwhile`);
    assert.deepEqual([img.width, img.height, img.channels], [4032, 3024, 3]); // opaque: alpha dropped in the worker
    assert.equal(img.data.length, 4032 * 3024 * 3);
    // The main thread stayed free: decoding on it would let the 20 ms timer fire about once in the whole
    // decode; here it fires most of the time (the bound leaves room for a busy CI machine).
    assert.ok(ticks >= Math.max(5, (ms / 20) * 0.25), `event loop starved: ${ticks} ticks in ${ms.toFixed(0)} ms`);
    // A real picture, not a blank buffer.
    let min = 255;
    let max = 0;
    for (let i = 0; i < img.data.length; i += 997) {
      min = Math.min(min, img.data[i]!);
      max = Math.max(max, img.data[i]!);
    }
    assert.ok(max - min > 100);
  });

  test('container rotation is applied by the decoder (iPhone portrait comes out portrait)', async () => {
    // iPhone XR: stored 4032×3024 with irot; EXIF Orientation 6. Decoded: 3024×4032, nothing left to rotate.
    const small = await decodeHeic(corpusPath('heic', 'rotate_mirror_270.HEIC'));
    assert.deepEqual([small.width, small.height], [1209, 1547]);
  });

  test('size limit is enforced before decoding', async () => {
    // The same photo decoded whole first: it warms the decoder's worker (its start is not what is compared) and
    // gives the time a decode takes on this machine now. A refusal from the header is a small fraction of it, on a
    // slow machine too (a fixed 500 ms failed once under a loaded CI: 880 ms, the worker's start included).
    const decodeStarted = performance.now();
    const whole = await decodeHeic(corpusPath('heic', 'IMG_1034.heic'));
    const decodeMs = performance.now() - decodeStarted;
    assert.deepEqual([whole.width, whole.height], [4032, 3024]);
    const started = performance.now();
    await assert.rejects(decodeHeic(corpusPath('heic', 'IMG_1034.heic'), { maxPixels: 1_000_000 }), (e: unknown) => {
      assert.ok(e instanceof MediaDecodeError);
      assert.match(e.message, /4032×3024 exceeds the 1000000-pixel limit/);
      return true;
    });
    const refusedMs = performance.now() - started;
    assert.ok(refusedMs < decodeMs / 2, `refused from the header, not after decoding: ${refusedMs.toFixed(0)} ms against a decode's ${decodeMs.toFixed(0)} ms`);
  });

  test('damaged and non-HEIC input fail with MediaDecodeError, and the decoder keeps working', async () => {
    const dir = tempDir('heic');
    const truncated = path.join(dir, 'truncated.heic');
    fs.writeFileSync(truncated, fs.readFileSync(corpusPath('heic', 'IMG_5195.HEIC')).subarray(0, 40_000));
    await assert.rejects(decodeHeic(truncated), MediaDecodeError);
    await assert.rejects(decodeHeic(corpusPath('exif', 'Canon_40D.jpg')), /not a HEIC image/);
    const ok = await decodeHeic(corpusPath('heic', 'Stonehenge.heic'));
    assert.deepEqual([ok.width, ok.height], [300, 200]);
  });

  test('several decodes queue on the pool; shutdown stops the workers', async () => {
    const results = await Promise.all(['Stonehenge.heic', 'Stonehenge.heic', 'Stonehenge.heic'].map((f) => decodeHeic(corpusPath('heic', f))));
    assert.equal(results.length, 3);
    assert.equal(heicDecoderWorkers(), 1);
    await shutdownHeicDecoder();
    assert.equal(heicDecoderWorkers(), 0);
    const again = await decodeHeic(corpusPath('duplicates', 'bee.heic')); // a new pool starts on demand
    assert.deepEqual([again.width, again.height], [384, 256]);
  });
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import sharp from 'sharp';
import { MediaDecodeError } from '../../../server/src/adapters/media/errors.ts';
import { shutdownHeicDecoder } from '../../../server/src/adapters/media/heic.ts';
import { openImage } from '../../../server/src/adapters/media/image-source.ts';
import { applyOrientation } from '../../../server/src/adapters/media/orientation.ts';
import { hammingDistance } from '../../../server/src/adapters/media/phash.ts';
import { extractPhotoMetadata } from '../../../server/src/adapters/media/photo-metadata.ts';
import { generateThumbnails, type ThumbnailSize } from '../../../server/src/adapters/media/thumbnails.ts';
import { corpusPath, tempDir } from './corpus.ts';
import { bombPng } from '../../shared/bomb-png.ts';

const dir = tempDir('thumbs');
let n = 0;
function targets(sizes: ThumbnailSize[] = ['small', 'medium', 'large']): Partial<Record<ThumbnailSize, string>> {
  const base = path.join(dir, `t${n++}`);
  return Object.fromEntries(sizes.map((s) => [s, path.join(base, `${s}.webp`)]));
}

async function webpSize(file: string): Promise<[number, number]> {
  const m = await sharp(file).metadata();
  assert.equal(m.format, 'webp', file);
  return [m.width!, m.height!];
}

function noTempFilesLeft(): void {
  const leftovers = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.tmp'));
  assert.deepEqual(leftovers, []);
}

describe('thumbnails', () => {
  after(() => shutdownHeicDecoder());

  test('12 MP JPEG: three WebP sizes on the long edge, from one decode', async () => {
    const t = targets();
    const r = await generateThumbnails(corpusPath('exif', 'Olympus_E-P3.jpg'), t, { phash: true });
    assert.equal(r.decoder, 'sharp');
    assert.deepEqual(r.source, { width: 4032, height: 3024 });
    assert.deepEqual(await webpSize(t.small!), [400, 300]);
    assert.deepEqual(await webpSize(t.medium!), [800, 600]);
    assert.deepEqual(await webpSize(t.large!), [1920, 1440]);
    assert.deepEqual([r.outputs.large!.width, r.outputs.large!.height], [1920, 1440]);
    assert.equal(r.outputs.small!.bytes, fs.statSync(t.small!).size);
    assert.match(r.phash!, /^[0-9a-f]{16}$/);
    noTempFilesLeft();
  });

  test('EXIF orientation 6: a portrait photo stored sideways comes out portrait', async () => {
    const t = targets();
    const r = await generateThumbnails(corpusPath('exif', 'orientation_portrait_6.jpg'), t); // stored 600×450
    assert.deepEqual(r.source, { width: 450, height: 600 });
    assert.deepEqual(await webpSize(t.small!), [300, 400]);
    assert.deepEqual(await webpSize(t.medium!), [450, 600]); // never upscaled
    assert.deepEqual(await webpSize(t.large!), [450, 600]);
  });

  test('all 16 orientation samples look like their upright original afterwards', async () => {
    // Each file shows the same scene stored with a different Orientation (and its number painted in the
    // middle). Upright, each must hash close to variant 1; a missed or wrong rotation/mirror gives 20+ bits.
    for (const kind of ['landscape', 'portrait']) {
      const hashes: string[] = [];
      for (let o = 1; o <= 8; o++) {
        const r = await generateThumbnails(corpusPath('exif', `orientation_${kind}_${o}.jpg`), targets(['small']), { phash: true });
        const expected = kind === 'landscape' ? [400, 300] : [300, 400];
        assert.deepEqual([r.outputs.small!.width, r.outputs.small!.height], expected, `${kind}_${o}`);
        hashes.push(r.phash!);
      }
      for (let o = 2; o <= 8; o++) assert.ok(hammingDistance(hashes[0]!, hashes[o - 1]!) <= 8, `${kind}_${o} upright`);
    }
  });

  test('our explicit orientation mapping (used for RAW previews) equals sharp autoOrient pixel for pixel', async () => {
    for (let o = 1; o <= 8; o++) {
      const file = corpusPath('exif', `orientation_landscape_${o}.jpg`);
      const auto = await sharp(file, { autoOrient: true }).raw().toBuffer({ resolveWithObject: true });
      const ours = await applyOrientation(sharp(file, { autoOrient: false }), o).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([ours.info.width, ours.info.height], [auto.info.width, auto.info.height], `orientation ${o}`);
      assert.ok(ours.data.equals(auto.data), `orientation ${o}: pixels`);
    }
  });

  test('HEIC: iPhone portrait (EXIF 6 + container rotation) comes out portrait, rotated once', async (t) => {
    const tg = targets();
    const started = performance.now();
    const r = await generateThumbnails(corpusPath('heic', 'iphone_13_pro_max.HEIC'), tg, { phash: true });
    t.diagnostic(`iphone_13_pro_max.HEIC (12 MP): 3 thumbnails + pHash in ${(performance.now() - started).toFixed(0)} ms`);
    assert.equal(r.decoder, 'heic-decode');
    assert.deepEqual(r.source, { width: 3024, height: 4032 });
    assert.deepEqual(await webpSize(tg.small!), [300, 400]);
    assert.deepEqual(await webpSize(tg.medium!), [600, 800]);
    assert.deepEqual(await webpSize(tg.large!), [1440, 1920]);
  });

  test('HEIC whose EXIF says "mirror + rotate 270": container transforms only, EXIF not applied again', async () => {
    const tg = targets();
    const r = await generateThumbnails(corpusPath('heic', 'rotate_mirror_270.HEIC'), tg);
    assert.deepEqual(r.source, { width: 1209, height: 1547 });
    assert.deepEqual(await webpSize(tg.large!), [1209, 1547]);
    assert.deepEqual(await webpSize(tg.small!), [313, 400]);
  });

  test('RAW: derivatives from the embedded preview (CR3 PRVW 1620×1080)', async () => {
    const tg = targets();
    const r = await generateThumbnails(corpusPath('raw', 'Canon_EOS_R6_pruned.CR3'), tg);
    assert.equal(r.decoder, 'raw-preview');
    assert.deepEqual(r.source, { width: 1620, height: 1080 });
    assert.deepEqual(await webpSize(tg.small!), [400, 267]);
    assert.deepEqual(await webpSize(tg.medium!), [800, 533]);
    assert.deepEqual(await webpSize(tg.large!), [1620, 1080]);
  });

  test('RAW without a usable preview: MediaDecodeError that says so', async () => {
    await assert.rejects(generateThumbnails(corpusPath('raw', 'iPhone12Pro_ProRAW_truncated.dng'), targets()), /no usable embedded preview in this DNG/);
  });

  test('a photo opened by the caller (as ingest opens it, to share its header) gives the same thumbnail and pHashes', async () => {
    // JPEG stored sideways (EXIF 6), PNG with alpha, RAW preview: the bytes, sizes and hashes are those of a
    // photo opened here; a failure to open is the call's failure, as it is without the option.
    const alpha = path.join(dir, 'alpha.png');
    await sharp({ create: { width: 640, height: 480, channels: 4, background: { r: 200, g: 40, b: 40, alpha: 0.5 } } }).png().toFile(alpha);
    for (const file of [corpusPath('exif', 'orientation_portrait_6.jpg'), alpha, corpusPath('raw', 'Canon_EOS_R6_pruned.CR3')]) {
      const own = await generateThumbnails(file, targets(['small']), { phash: true });
      const shared = await generateThumbnails(file, targets(['small']), { phash: true, opened: openImage(file) });
      assert.deepEqual([shared.source, shared.decoder, shared.phash, shared.phashWindows], [own.source, own.decoder, own.phash, own.phashWindows], file);
      assert.deepEqual(fs.readFileSync(shared.outputs.small!.path), fs.readFileSync(own.outputs.small!.path), file);
    }
    const damaged = path.join(dir, 'not-a-photo.jpg');
    fs.writeFileSync(damaged, 'not a photo');
    await assert.rejects(generateThumbnails(damaged, targets(['small']), { opened: openImage(damaged) }), MediaDecodeError);
  });

  test('small photos are never upscaled', async () => {
    const tg = targets();
    await generateThumbnails(corpusPath('exif', 'Canon_40D.jpg'), tg); // 100×68
    for (const f of Object.values(tg)) assert.deepEqual(await webpSize(f!), [100, 68]);
  });

  test('damaged JPEG: MediaDecodeError, no output, no temp files', async () => {
    const tg = targets();
    await assert.rejects(generateThumbnails(corpusPath('exif', 'corrupted.jpg'), tg), (e: unknown) => {
      assert.ok(e instanceof MediaDecodeError);
      assert.match(e.message, /corrupted\.jpg: .*Corrupt JPEG data/);
      return true;
    });
    for (const f of Object.values(tg)) assert.equal(fs.existsSync(f!), false);
    noTempFilesLeft();
  });

  test('decompression bomb: a tiny PNG claiming 100 000 × 100 000 px is refused from its header', async () => {
    const png = bombPng();
    const bomb = path.join(dir, 'bomb.png');
    fs.writeFileSync(bomb, png);
    const started = performance.now();
    await assert.rejects(generateThumbnails(bomb, targets()), /pixel limit/);
    assert.ok(performance.now() - started < 1000);
  });

  test('outputs replace existing files atomically, also when two jobs race for the same target', async () => {
    const tg = targets(['small']);
    fs.mkdirSync(path.dirname(tg.small!), { recursive: true });
    fs.writeFileSync(tg.small!, 'old');
    await Promise.all([
      generateThumbnails(corpusPath('exif', 'orientation_portrait_1.jpg'), tg),
      generateThumbnails(corpusPath('exif', 'orientation_portrait_1.jpg'), tg),
    ]);
    assert.deepEqual(await webpSize(tg.small!), [300, 400]);
    noTempFilesLeft();
  });

  test('timing: metadata + 3 thumbnails + pHash per 12 MP JPEG', async (t) => {
    const files = [
      ['exif', 'Olympus_E-P3.jpg'],
      ['duplicates', 'IMG_20180725_163423.jpg'],
      ['exif', 'jolla.jpg'],
      ['duplicates', 'iphone_hdr_NO.jpg'],
    ] as const;
    const times: number[] = [];
    for (const [folder, file] of files) {
      const started = performance.now();
      await extractPhotoMetadata(corpusPath(folder, file));
      await generateThumbnails(corpusPath(folder, file), targets(), { phash: true });
      times.push(performance.now() - started);
    }
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    t.diagnostic(`per JPEG (8–12 MP): ${times.map((x) => x.toFixed(0)).join(', ')} ms; mean ${mean.toFixed(0)} ms`);
    assert.ok(mean < 5000, 'sanity bound for a loaded 2-core machine');
  });
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { shutdownHeicDecoder } from '../../../server/src/adapters/media/heic.ts';
import sharp from 'sharp';
import { openImage } from '../../../server/src/adapters/media/image-source.ts';
import {
  areaAverage32, computePhash, greyIntegral, hammingDistance, PHASH_EDGE, PHASH_WINDOWS, phashesFromRaw, phashFromGrey32, windowRect, type RawPixels,
} from '../../../server/src/adapters/media/phash.ts';
import { generateThumbnails } from '../../../server/src/adapters/media/thumbnails.ts';
import { corpusPath, labels } from './corpus.ts';

describe('pHash on the corpus duplicate groups', () => {
  after(() => shutdownHeicDecoder());
  const lab = labels('duplicates');
  const hashes = new Map<string, string>();

  test('hash every file in corpus/duplicates (JPEG and HEIC)', async () => {
    for (const file of Object.keys(lab)) hashes.set(file, await computePhash(corpusPath('duplicates', file)));
    for (const h of hashes.values()) assert.match(h, /^[0-9a-f]{16}$/);
  });

  test('members of one group are within 10 bits (exact, resized, re-encoded, HDR pair, format change, 3 % crop)', () => {
    // Measured: exact 0, same pixels/different bytes 0, HEIC→JPEG 0, 4 resolutions 0, tiny copy 2,
    // HDR/non-HDR 4, crop+resize+q55 4.
    const files = [...hashes.keys()];
    let pairs = 0;
    for (let i = 0; i < files.length; i++) {
      for (let j = i + 1; j < files.length; j++) {
        const [a, b] = [files[i]!, files[j]!];
        if (lab[a]!.dup_group !== lab[b]!.dup_group) continue;
        pairs++;
        const d = hammingDistance(hashes.get(a)!, hashes.get(b)!);
        assert.ok(d <= 10, `${a} ~ ${b} (${lab[a]!.dup_type}): distance ${d}`);
      }
    }
    assert.ok(pairs >= 10);
  });

  test('different photos are more than 20 bits apart', () => {
    // Measured minimum between groups: 26.
    const files = [...hashes.keys()];
    for (let i = 0; i < files.length; i++) {
      for (let j = i + 1; j < files.length; j++) {
        const [a, b] = [files[i]!, files[j]!];
        if (lab[a]!.dup_group === lab[b]!.dup_group) continue;
        const d = hammingDistance(hashes.get(a)!, hashes.get(b)!);
        assert.ok(d > 20, `${a} vs ${b}: distance ${d}`);
      }
    }
  });

  test('EXIF rotation does not change the hash: a photo and its Orientation-6 twin', async () => {
    const upright = await computePhash(corpusPath('exif', 'orientation_landscape_1.jpg'));
    const rotated = await computePhash(corpusPath('exif', 'orientation_landscape_6.jpg'));
    assert.ok(hammingDistance(upright, rotated) <= 6);
  });
});

describe('pHash version 2: the frame and nine windows in JavaScript, against a straightforward reference', () => {
  after(() => shutdownHeicDecoder());

  /** The pixels the pipeline hashes (thumbnails.ts): the upright photo fitted inside PHASH_EDGE while decoding. */
  async function small(file: string): Promise<RawPixels> {
    const { pipeline } = await openImage(file);
    const { data, info } = await pipeline.resize(PHASH_EDGE, PHASH_EDGE, { fit: 'inside', withoutEnlargement: true }).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    return { data, raw: { width: info.width, height: info.height, channels: info.channels as RawPixels['raw']['channels'] } };
  }

  /**
   * The recipe written the plain way, independent of phash.ts's tables and summed-area table: grey by the
   * sRGB formulas (luminance of linear light, back through the sRGB curve; alpha ignored), then each of the
   * 32×32 cells of a rectangle the average of the pixels it covers, each weighted by the area it covers.
   */
  function referenceGrey32(image: RawPixels, [left, top, w, h]: readonly [number, number, number, number]): Float64Array {
    const { width, height, channels } = image.raw;
    const lin = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    const greys = new Float64Array(width * height).map((_, q) => {
      const p = q * channels;
      if (channels < 3) return image.data[p]!;
      const l = 0.2126 * lin(image.data[p]!) + 0.7152 * lin(image.data[p + 1]!) + 0.0722 * lin(image.data[p + 2]!);
      return 255 * (l <= 0.0031308 ? l * 12.92 : 1.055 * l ** (1 / 2.4) - 0.055);
    });
    const grey = (x: number, y: number) => greys[y * width + x]!;
    const out = new Float64Array(1024);
    for (let j = 0; j < 32; j++) {
      const y0 = top + (h * j) / 32;
      const y1 = top + (h * (j + 1)) / 32;
      for (let i = 0; i < 32; i++) {
        const x0 = left + (w * i) / 32;
        const x1 = left + (w * (i + 1)) / 32;
        let sum = 0;
        for (let y = Math.floor(y0); y < Math.min(height, Math.ceil(y1)); y++) {
          const cy = Math.min(y + 1, y1) - Math.max(y, y0);
          for (let x = Math.floor(x0); x < Math.min(width, Math.ceil(x1)); x++) sum += cy * (Math.min(x + 1, x1) - Math.max(x, x0)) * grey(x, y);
        }
        out[j * 32 + i] = sum / ((x1 - x0) * (y1 - y0));
      }
    }
    return out;
  }

  const FILES = () => [
    ...['IMG_2927.HEIC', 'bee.heic', 'bee.jpg', 'IMG_20180725_163423-tiny.jpg', 'portrait_1080p.jpg', 'tanners_ridge_edited.jpg', 'iphone_hdr_YES.jpg'].map((f) => corpusPath('duplicates', f)),
    ...['Canon_EOS_R6_pruned.CR3', 'RAW_NIKON_D1.NEF', 'exiftool_DNG.dng', 'exiftool_FujiFilm.raf'].map((f) => corpusPath('raw', f)),
    ...['Canon_40D.jpg', 'Nikon_D70.jpg', 'Olympus_E-P3.jpg'].map((f) => corpusPath('exif', f)),
  ];

  test('the frame and every window match the reference: JPEG, HEIC, RAW previews, rotated and tiny photos', async () => {
    let same = 0;
    let hashes = 0;
    for (const file of FILES()) {
      const image = await small(file);
      const { width, height } = image.raw;
      const table = greyIntegral(image);
      const got = phashesFromRaw(image);
      const windows = [[0, 0, 1, 1] as const, ...PHASH_WINDOWS];
      for (const [k, window] of windows.entries()) {
        const rect = windowRect(width, height, window);
        const reference = referenceGrey32(image, rect);
        const ours = areaAverage32(table, width, height, rect);
        // Ours is rounded to whole grey levels, and its grey goes through a 16 384-step table: within one level.
        for (let c = 0; c < 1024; c++) assert.ok(Math.abs(ours[c]! - reference[c]!) <= 1, `${file} window ${k} cell ${c}: ${ours[c]} vs ${reference[c]}`);
        const hash = k === 0 ? got.phash : got.windows.slice(16 * (k - 1), 16 * k);
        const expected = phashFromGrey32(Uint8Array.from(reference, (v) => Math.round(v)));
        const d = hammingDistance(hash, expected);
        assert.ok(d <= 2, `${file} window ${k}: ${d} bits from the reference`);
        hashes++;
        if (d === 0) same++;
      }
    }
    assert.ok(same >= hashes * 0.9, `${same} of ${hashes} hashes exactly the reference's`);
  });

  test('an alpha channel is ignored and grey images hash as their grey (odd sizes)', async () => {
    const rgb = await sharp(corpusPath('duplicates', 'bee.jpg')).resize(333, 217, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const rgba = await sharp(rgb.data, { raw: rgb.info }).ensureAlpha(0.5).raw().toBuffer({ resolveWithObject: true });
    const asRaw = ({ data, info }: typeof rgb): RawPixels => ({ data, raw: { width: info.width, height: info.height, channels: info.channels as RawPixels['raw']['channels'] } });
    const withAlpha = phashesFromRaw(asRaw(rgba));
    assert.match(withAlpha.windows, /^[0-9a-f]{144}$/);
    assert.deepEqual(withAlpha, phashesFromRaw(asRaw(rgb)));
    const grey = await sharp(corpusPath('duplicates', 'tanners_ridge.jpg')).resize(151, 399, { fit: 'fill' }).greyscale().raw().toBuffer({ resolveWithObject: true });
    assert.equal(grey.info.channels, 1);
    // Grey + alpha (as a grey PNG with transparency decodes), interleaved by hand.
    const greyAlpha = Buffer.alloc(grey.data.length * 2, 128);
    for (let i = 0; i < grey.data.length; i++) greyAlpha[2 * i] = grey.data[i]!;
    assert.deepEqual(phashesFromRaw({ data: greyAlpha, raw: { width: grey.info.width, height: grey.info.height, channels: 2 } }), phashesFromRaw(asRaw(grey)));
  });

  test('the backfill reads the small WebP thumbnail: within a few bits of what ingest hashed from the raw pixels', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'phash-'));
    try {
      for (const file of FILES().slice(0, 7)) {
        const target = path.join(dir, 'small.webp');
        const made = await generateThumbnails(file, { small: target }, { phash: true });
        const { data, info } = await sharp(target).raw().toBuffer({ resolveWithObject: true });
        const again = phashesFromRaw({ data, raw: { width: info.width, height: info.height, channels: info.channels as RawPixels['raw']['channels'] } });
        assert.ok(hammingDistance(again.phash, made.phash!) <= 4, `${file}: ${hammingDistance(again.phash, made.phash!)}`);
        for (let k = 0; k < 9; k++) assert.ok(hammingDistance(again.windows.slice(16 * k, 16 * k + 16), made.phashWindows!.slice(16 * k, 16 * k + 16)) <= 6, `${file} window ${k}`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('pHash internals', () => {
  test('uniform image hashes to zero; DC bit is always 0; 63 informative bits', () => {
    assert.equal(phashFromGrey32(new Uint8Array(1024).fill(128)), '0000000000000000');
    const pattern = new Uint8Array(1024).map((_, i) => 128 + 60 * Math.sin((i % 32) / 5) * Math.cos(Math.floor(i / 32) / 7));
    const h = phashFromGrey32(pattern);
    assert.equal(BigInt(`0x${h}`) >> 63n, 0n);
    assert.notEqual(h, '0000000000000000');
  });

  test('brightness and contrast changes keep the hash', () => {
    const img = new Uint8Array(1024).map((_, i) => 60 + ((Math.sin(i / 7) + Math.cos(i / 53)) * 40 + 80) / 2);
    const brighter = img.map((v) => Math.min(255, v * 1.2 + 10));
    assert.ok(hammingDistance(phashFromGrey32(img), phashFromGrey32(brighter)) <= 2);
  });

  test('hammingDistance', () => {
    assert.equal(hammingDistance('0000000000000000', 'ffffffffffffffff'), 64);
    assert.equal(hammingDistance('8000000000000001', '0000000000000000'), 2);
    assert.equal(hammingDistance('0123456789abcdef', '0123456789ABCDEF'), 0);
    assert.throws(() => hammingDistance('xyz', '0000000000000000'), /16 hex/);
    assert.throws(() => phashFromGrey32(new Uint8Array(10)), /1024/);
  });
});

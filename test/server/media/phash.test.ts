import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { shutdownHeicDecoder } from '../../../server/src/adapters/media/heic.ts';
import sharp from 'sharp';
import { openImage } from '../../../server/src/adapters/media/image-source.ts';
import { computePhash, hammingDistance, phashesFromRaw, phashFromGrey32, phashFromPipeline, phashWindowsFromRaw, type RawPixels } from '../../../server/src/adapters/media/phash.ts';
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

describe('pHashes from one grey conversion, as the pipeline takes them', () => {
  after(() => shutdownHeicDecoder());

  /** The 400 px pixels the pipeline hashes (thumbnails.ts): the upright photo, shrunk while decoding. */
  async function small(file: string): Promise<RawPixels> {
    const { pipeline } = await openImage(file);
    const { data, info } = await pipeline.resize(400, 400, { fit: 'inside', withoutEnlargement: true }).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    return { data, raw: { width: info.width, height: info.height, channels: info.channels as RawPixels['raw']['channels'] } };
  }

  async function onePipelineEach(image: RawPixels) {
    return { phash: await phashFromPipeline(sharp(image.data, { raw: image.raw })), windows: await phashWindowsFromRaw(image) };
  }

  test('the same whole-frame and window hashes as one pipeline per hash: JPEG, HEIC, RAW previews, rotated and tiny photos', async () => {
    const files = [
      ...['IMG_2927.HEIC', 'bee.heic', 'bee.jpg', 'IMG_20180725_163423-tiny.jpg', 'portrait_1080p.jpg', 'tanners_ridge_edited.jpg', 'iphone_hdr_YES.jpg'].map((f) => corpusPath('duplicates', f)),
      ...['Canon_EOS_R6_pruned.CR3', 'RAW_NIKON_D1.NEF', 'exiftool_DNG.dng', 'exiftool_FujiFilm.raf'].map((f) => corpusPath('raw', f)),
      ...['Canon_40D.jpg', 'Nikon_D70.jpg', 'Olympus_E-P3.jpg'].map((f) => corpusPath('exif', f)),
    ];
    for (const file of files) {
      const image = await small(file);
      assert.deepEqual(await phashesFromRaw(image), await onePipelineEach(image), file);
    }
  });

  test('the same with grey pixels, and with an alpha channel (odd sizes)', async () => {
    const rgba = await sharp(corpusPath('duplicates', 'bee.jpg')).resize(333, 217, { fit: 'fill' }).ensureAlpha(0.5).raw().toBuffer({ resolveWithObject: true });
    const grey = await sharp(corpusPath('duplicates', 'tanners_ridge.jpg')).resize(151, 399, { fit: 'fill' }).greyscale().raw().toBuffer({ resolveWithObject: true });
    for (const { data, info } of [rgba, grey]) {
      const image: RawPixels = { data, raw: { width: info.width, height: info.height, channels: info.channels as RawPixels['raw']['channels'] } };
      const hashes = await phashesFromRaw(image);
      assert.match(hashes.windows, /^[0-9a-f]{144}$/);
      assert.deepEqual(hashes, await onePipelineEach(image), `${info.channels} channels`);
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

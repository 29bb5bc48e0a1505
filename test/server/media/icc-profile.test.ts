/**
 * Colour of thumbnails when the photo carries an ICC profile: an sRGB profile is ignored (its conversion into
 * sRGB would change nothing and costs as much as a small WebP encode), any other profile is still converted,
 * so wide-gamut photos keep their colours.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { iccDescription, isSrgbProfile } from '../../../server/src/adapters/media/icc-profile.ts';
import { generateThumbnails } from '../../../server/src/adapters/media/thumbnails.ts';
import { corpusPath, tempDir } from './corpus.ts';

const dir = tempDir('icc');

/** Mean of each colour channel of a decoded image. */
async function means(input: string | Buffer): Promise<number[]> {
  const s = await sharp(input).stats();
  return s.channels.slice(0, 3).map((c) => c.mean);
}

/** Largest difference of a channel mean between two images. */
const gap = (a: number[], b: number[]) => Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));

/** The small thumbnail of a corpus photo, and the same size decoded by sharp with and without its profile. */
async function compare(folder: string, name: string) {
  const file = corpusPath(folder, name);
  const small = path.join(dir, `${folder}-${name}.webp`);
  await generateThumbnails(file, { small });
  const { width, height } = await sharp(small).metadata();
  const at = (ignoreIcc: boolean) => sharp(fs.readFileSync(file), { autoOrient: true, ignoreIcc }).resize(width, height, { fit: 'fill' }).png().toBuffer();
  return { thumb: await means(small), converted: await means(await at(false)), unconverted: await means(await at(true)), icc: (await sharp(file).metadata()).icc };
}

describe('ICC profiles in thumbnails', () => {
  test('reads the description of v2 (desc) and v4 (mluc) profiles', async () => {
    const v2 = (await sharp(corpusPath('faces', 'face_027.jpg')).metadata()).icc!;
    const v4 = (await sharp(corpusPath('live', 'pixel_8_not_motion.jpg')).metadata()).icc!;
    assert.equal(iccDescription(v2), 'sRGB IEC61966-2.1');
    assert.equal(iccDescription(v4), 'Display P3');
    assert.equal(isSrgbProfile(v2), true);
    assert.equal(isSrgbProfile(v4), false);
    assert.equal(isSrgbProfile(undefined), false);
    assert.equal(iccDescription(Buffer.alloc(40)), null); // too short to be a profile: no crash
  });

  test('Adobe RGB photos are still converted to sRGB (their colours stay right)', async () => {
    for (const [folder, name] of [['ocr', 'ocr_02.jpg'], ['labelled', 'photo_099.jpg']] as const) {
      const r = await compare(folder, name);
      assert.match(iccDescription(r.icc!) ?? '', /Adobe RGB/);
      assert.ok(gap(r.converted, r.unconverted) > 1, `${name}: the profile changes the picture`);
      // WebP's lossy encoding moves a channel mean by up to ~1.5; ignoring the profile moves it much further.
      assert.ok(gap(r.thumb, r.converted) < 2, `${name}: thumbnail ${r.thumb} ≈ converted ${r.converted}`);
      assert.ok(gap(r.thumb, r.converted) * 2 < gap(r.thumb, r.unconverted), `${name}: thumbnail nearer the converted colours than the unconverted`);
    }
  });

  test('photos with an sRGB profile look the same as after a conversion', async () => {
    const r = await compare('faces', 'face_027.jpg');
    assert.equal(isSrgbProfile(r.icc), true);
    assert.ok(gap(r.thumb, r.converted) < 2, `thumbnail ${r.thumb} ≈ converted ${r.converted}`);
  });
});

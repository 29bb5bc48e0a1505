/**
 * openImageBytes (adapters/media/image-source.ts): a photo held in memory (search by image) decodes as the
 * same file does through openImage at ingest: EXIF orientation, HEIC, RAW's embedded preview; a non-image
 * and a decompression bomb are refused from their bytes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { openImage, openImageBytes } from '../../../server/src/adapters/media/image-source.ts';
import { MediaDecodeError } from '../../../server/src/adapters/media/index.ts';
import { corpusPath } from './corpus.ts';
import { bombPng } from '../../shared/bomb-png.ts';

async function size(opened: Awaited<ReturnType<typeof openImage>>): Promise<[number, number]> {
  const { info } = await opened.pipeline.raw().toBuffer({ resolveWithObject: true });
  return [info.width, info.height];
}

describe('openImageBytes: decoding a photo held in memory as ingest decodes files', { timeout: 120_000 }, () => {
  for (const [folder, file] of [
    ['exif', 'orientation_landscape_6.jpg'],
    ['exif', 'orientation_portrait_8.jpg'],
    ['duplicates', 'bee.heic'],
    ['raw', 'RAW_NIKON_D1.NEF'],
    ['raw', 'exiftool_FujiFilm.raf'],
  ] as const) {
    test(`${folder}/${file}: the same upright pixels size and decoder as from the file`, async () => {
      const p = corpusPath(folder, file);
      const fromFile = await openImage(p);
      const fromBytes = await openImageBytes(fs.readFileSync(p), { name: file });
      assert.equal(fromBytes.decoder, fromFile.decoder);
      assert.deepEqual(await size(fromBytes), await size(fromFile));
    });
  }

  test('a non-image and a PNG claiming 100,000 × 100,000 pixels are refused from their bytes', async () => {
    await assert.rejects(openImageBytes(Buffer.from('plain text, not a photo')), (e: unknown) => e instanceof MediaDecodeError && /not a supported photo/.test(e.detail));
    const bomb = bombPng();
    const opened = await openImageBytes(bomb, { name: 'bomb.png' });
    const started = performance.now();
    await assert.rejects(opened.pipeline.raw().toBuffer(), /pixel limit/);
    assert.ok(performance.now() - started < 5000, 'refused from the header, not after decoding');
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { extractRawPreview, inspectRaw } from '../../../server/src/adapters/media/raw-preview.ts';
import { corpusPath, labels } from './corpus.ts';

/**
 * What each corpus RAW holds, checked by hand against ExifTool's listing of the same files:
 * the largest usable preview (null = none usable in-process) and where it comes from.
 */
const EXPECTED: Record<string, { preview: [number, number] | null; source?: RegExp; why?: string }> = {
  'Canon_EOS_R6_pruned.CR3': { preview: [1620, 1080], source: /CR3 PRVW/ },
  // The D1 (2000) stores no JPEG at all: only a 160×120 uncompressed RGB thumbnail in IFD0, which sharp decodes.
  'RAW_NIKON_D1.NEF': { preview: [160, 120], source: /IFD0:uncompressed RGB/ },
  // ExifTool test stubs: image data stripped, only tiny placeholder JPEGs left (or none).
  'exiftool_CanonRaw.cr2': { preview: null, why: 'stub: IFD0 image data removed' },
  'exiftool_CanonRaw.crw': { preview: null, why: 'CIFF container: not supported in-process' },
  'exiftool_DNG.dng': { preview: [8, 8], source: /IFD0:uncompressed RGB/ },
  'exiftool_FujiFilm.raf': { preview: [8, 8], source: /RAF header/ },
  'exiftool_Panasonic.rw2': { preview: [8, 8], source: /JpgFromRaw/ },
  // Truncated to 64 KB: the preview's bytes are past the end, so it is refused rather than half-decoded.
  'iPhone12Pro_ProRAW_truncated.dng': { preview: null, why: 'preview lies beyond the truncation' },
  // DNG 1.7 from Adobe DNG Converter: a 256×171 JPEG preview in IFD0 (the main image is JPEG XL).
  'nikon_z9_overexposed.dng': { preview: [256, 171], source: /IFD0:strip/ },
};

describe('RAW previews on the corpus', () => {
  for (const [file, want] of Object.entries(EXPECTED)) {
    test(file, async () => {
      const preview = await extractRawPreview(corpusPath('raw', file));
      if (!want.preview) {
        assert.equal(preview, null, want.why);
        return;
      }
      assert.ok(preview, 'a preview is found');
      assert.deepEqual([preview.width, preview.height], want.preview);
      assert.match(preview.source, want.source!);
      // The bytes are a complete JPEG that sharp decodes to the announced size.
      const meta = await sharp(preview.jpeg).metadata();
      assert.equal(meta.format, 'jpeg');
      const { info } = await sharp(preview.jpeg, { failOn: 'truncated' }).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([info.width, info.height], want.preview);
    });
  }

  test('declared full-resolution size and orientation match ExifTool for every TIFF-based RAW and CR3', async () => {
    const lab = labels('raw');
    for (const file of ['Canon_EOS_R6_pruned.CR3', 'RAW_NIKON_D1.NEF', 'exiftool_CanonRaw.cr2', 'exiftool_DNG.dng', 'exiftool_Panasonic.rw2', 'iPhone12Pro_ProRAW_truncated.dng', 'nikon_z9_overexposed.dng']) {
      const e = lab[file]!.expected_metadata;
      const info = await inspectRaw(corpusPath('raw', file));
      assert.deepEqual([info.width, info.height], [e.width, e.height], file);
      assert.equal(info.orientation, e.orientation ?? null, `${file} orientation`);
    }
  });

  test('not a RAW: empty inspection, no preview', async () => {
    const jpeg = corpusPath('raw', 'RAW_NIKON_D1.JPG');
    assert.equal((await inspectRaw(jpeg)).container, null);
    assert.equal(await extractRawPreview(jpeg), null);
  });
});

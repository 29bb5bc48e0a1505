/**
 * What the OCR pipeline is given besides a good photo: encoded bytes (the medium thumbnail the indexer will
 * hand it), an upside-down photo (the angle classifier), and bad input, which must give an OcrInputError with a
 * stable code (never a crash) or, for an image without text, no lines.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createOcr, loadCharset, OcrInputError, type OcrEngine } from '../../../server/src/features/ocr/index.ts';
import { corpusPath, tempDir } from '../media/corpus.ts';
import { KEYS_PATH, onnxOcrInfer, type OnnxOcr } from './onnx-infer.ts';

/**
 * A decompression bomb: a real 8×8 JPEG whose frame header (SOF0) is rewritten to claim 65000 × 65000 pixels
 * (4.2 gigapixels, 12 GB as RGB) while the file stays a few hundred bytes.
 */
async function bombJpeg(): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888888' } }).jpeg({ optimiseCoding: false }).toBuffer();
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  assert.ok(sof > 0, 'baseline JPEG has a SOF0 marker');
  jpeg.writeUInt16BE(65000, sof + 5); // height
  jpeg.writeUInt16BE(65000, sof + 7); // width
  return jpeg;
}

describe('OCR input', () => {
  let onnx: OnnxOcr;
  let ocr: OcrEngine;
  const dir = tempDir('ocr-input');
  before(async () => {
    onnx = await onnxOcrInfer();
    ocr = createOcr({ infer: onnx.infer, charset: loadCharset(KEYS_PATH) });
  });
  after(() => onnx?.release());

  test('encoded bytes: the 800-px WebP thumbnail of the Chinese sign reads like the file', async () => {
    const thumbnail = await sharp(corpusPath('ocr', 'ocr_03.jpg')).resize(800, 800, { fit: 'inside' }).webp({ quality: 80 }).toBuffer();
    const result = await ocr.recognise(thumbnail);
    const texts = result.lines.map((l) => l.text);
    assert.ok(texts.includes('愚园路') && texts.includes('Yuyuan Rd.'), JSON.stringify(texts));
    assert.equal(result.width, 800);
  });

  test('an upside-down photo is read the right way up (angle classifier, 180°)', async () => {
    const upsideDown = await sharp(corpusPath('ocr', 'ocr_03.jpg')).rotate(180).png().toBuffer();
    const texts = (await ocr.recognise(upsideDown)).lines.map((l) => l.text);
    assert.ok(texts.includes('愚园路') && texts.includes('Yuyuan Rd.'), JSON.stringify(texts));
  });

  test('EXIF orientation is applied: boxes are in the upright image', async () => {
    // The same pixels stored turned by 90° with Orientation 6 ("rotate 90° clockwise to view").
    const stored = await sharp(corpusPath('ocr', 'ocr_03.jpg')).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 92 }).toBuffer();
    const result = await ocr.recognise(stored);
    assert.deepEqual([result.width, result.height], [640, 339]);
    assert.ok(result.lines.some((l) => l.text === 'Yuyuan Rd.'));
  });

  test('images without text give no lines: blank white, black, 1×1, a 32×4000 strip', async () => {
    const cases = [
      sharp({ create: { width: 800, height: 600, channels: 3, background: '#ffffff' } }),
      sharp({ create: { width: 640, height: 480, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } }),
      sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } }),
      sharp({ create: { width: 32, height: 4000, channels: 3, background: '#203040' } }),
    ];
    for (const image of cases) {
      const result = await ocr.recognise(await image.png().toBuffer());
      assert.deepEqual(result.lines, []);
      assert.ok(result.width >= 1 && result.height >= 1);
    }
  });

  test('not an image, empty, truncated, or a decompression bomb: OcrInputError with a stable code, never a crash', async () => {
    const textFile = path.join(dir, 'notes.jpg');
    fs.writeFileSync(textFile, 'this is a shopping list, not a photo\n');
    const emptyFile = path.join(dir, 'empty.png');
    fs.writeFileSync(emptyFile, '');
    const jpeg = fs.readFileSync(corpusPath('ocr', 'ocr_03.jpg'));
    const inputs: [string, string | Buffer][] = [
      ['a text file named .jpg', textFile],
      ['a zero-byte file', emptyFile],
      ['a file that does not exist', path.join(dir, 'missing.jpg')],
      ['zero bytes', Buffer.alloc(0)],
      ['random bytes', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))],
      ['half a JPEG', jpeg.subarray(0, jpeg.length >> 1)],
      ['a JPEG claiming 65000 × 65000 pixels', await bombJpeg()],
    ];
    for (const [what, input] of inputs) {
      await assert.rejects(ocr.recognise(input), (e: unknown) => {
        assert.ok(e instanceof OcrInputError, `${what}: ${String(e)}`);
        assert.equal(e.code, 'ocr_unreadable_image');
        assert.match(e.message, /^cannot read the image for OCR: /);
        if (what.includes('65000')) assert.match(e.message, /pixel limit/, 'refused from the header, before decoding');
        return true;
      }, what);
    }
    // And the engine still works afterwards.
    assert.ok((await ocr.recognise(corpusPath('ocr', 'ocr_03.jpg'))).lines.length > 0);
  });

  test('a model that throws or answers in another shape fails the call with that error; the engine goes on', async () => {
    const charset = loadCharset(KEYS_PATH);
    const throwing = createOcr({
      charset,
      infer: (model, input) => (model === 'rec' ? Promise.reject(new Error('rec worker crashed')) : onnx.infer(model, input)),
    });
    await assert.rejects(throwing.recognise(corpusPath('ocr', 'ocr_03.jpg')), /rec worker crashed/);
    const otherDictionary = createOcr({
      charset,
      infer: async (model, input) => {
        const out = await onnx.infer(model, input);
        return model === 'rec' ? { data: out.data.subarray(0, out.dims[0]! * out.dims[1]! * 100), dims: [out.dims[0]!, out.dims[1]!, 100] } : out;
      },
    });
    await assert.rejects(otherDictionary.recognise(corpusPath('ocr', 'ocr_03.jpg')), /100 classes, the charset has 6625/);
    assert.ok((await ocr.recognise(corpusPath('ocr', 'ocr_03.jpg'))).lines.length > 0);
  });
});

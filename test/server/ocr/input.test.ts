/**
 * What the OCR pipeline is given besides a good photo: encoded bytes (the medium thumbnail the indexer will
 * hand it), an upside-down photo (the angle classifier), and bad input, which must give an OcrInputError with a
 * stable code (never a crash) or, for an image without text, no lines.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createOcr, loadCharset, OcrInputError, type OcrEngine } from '../../../server/src/features/ocr/index.ts';
import { corpusPath, tempDir } from '../media/corpus.ts';
import { KEYS_PATH, onnxOcrInfer, type OnnxOcr } from './onnx-infer.ts';

/** A PNG whose header claims `width × height` but whose data is a few bytes: a decompression bomb. */
function bombPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
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
      ['a PNG claiming 100000 × 100000 pixels', bombPng(100_000, 100_000)],
    ];
    for (const [what, input] of inputs) {
      await assert.rejects(ocr.recognise(input), (e: unknown) => {
        assert.ok(e instanceof OcrInputError, `${what}: ${String(e)}`);
        assert.equal(e.code, 'ocr_unreadable_image');
        assert.match(e.message, /^cannot read the image for OCR: /);
        return true;
      }, what);
    }
    // And the engine still works afterwards.
    assert.ok((await ocr.recognise(corpusPath('ocr', 'ocr_03.jpg'))).lines.length > 0);
  });
});

/**
 * Metadata extraction reads the metadata, not the file: a photo with a large tail (pixels, a damaged copy
 * padded with garbage, a RAW with an XMP block appended far behind its image data) costs a bounded number of
 * bytes, and exifr gets exactly the data it would have found in the whole file.
 *
 * Deterministic checks: the byte sources count the bytes requested from them, and the end-to-end case counts
 * what the process read from the kernel (/proc/self/io rchar: every read of every thread, libvips included)
 * and how far the resident set grew.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import exifr from 'exifr';
import { bufferSource, type ByteSource } from '../../../server/src/adapters/media/byte-source.ts';
import { MAX_METADATA_BYTES, metadataBytes } from '../../../server/src/adapters/media/metadata-bytes.ts';
import { extractPhotoMetadata } from '../../../server/src/adapters/media/photo-metadata.ts';
import { corpusPath, tempDir } from './corpus.ts';
import { pngChunk } from '../../shared/bomb-png.ts';

const EXIFR_OPTIONS = { tiff: true, ifd0: {}, ifd1: false, exif: true, gps: true, interop: true, makerNote: true, xmp: { parse: false, multiSegment: true }, iptc: true, icc: false, translateValues: false, reviveValues: false, mergeOutput: false, silentErrors: true } as const;

/** A byte source over `bytes` that counts what is asked of it. */
function counted(bytes: Uint8Array): ByteSource & { bytesRead: number; reads: number } {
  const inner = bufferSource(bytes);
  const src = {
    size: inner.size,
    bytesRead: 0,
    reads: 0,
    async read(offset: number, length: number) {
      const out = await inner.read(offset, length);
      src.bytesRead += out.length;
      src.reads++;
      return out;
    },
  };
  return src;
}

/** What exifr makes of some bytes, comparable with deepEqual (Uint8Arrays as plain arrays). */
async function parsed(bytes: Uint8Array): Promise<unknown> {
  const r = await exifr.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), EXIFR_OPTIONS);
  return JSON.parse(JSON.stringify(r ?? null, (_k, v: unknown) => (v instanceof Uint8Array ? Array.from(v) : v)));
}

/** Move one IFD0 value of a little- or big-endian TIFF to the end of the file, behind `gap` bytes. */
function moveTiffValueFar(tiff: Buffer, tag: number, gap: number): Buffer {
  const le = tiff[0] === 0x49;
  const u16 = (b: Buffer, at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (b: Buffer, at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const ifd0 = u32(tiff, 4);
  for (let i = 0; i < u16(tiff, ifd0); i++) {
    const at = ifd0 + 2 + i * 12;
    if (u16(tiff, at) !== tag) continue;
    const size = u32(tiff, at + 4); // BYTE/UNDEFINED values: count = bytes
    const value = tiff.subarray(u32(tiff, at + 8), u32(tiff, at + 8) + size);
    const out = Buffer.concat([tiff, Buffer.alloc(gap), value]);
    if (le) out.writeUInt32LE(tiff.length + gap, at + 8);
    else out.writeUInt32BE(tiff.length + gap, at + 8);
    return out;
  }
  throw new Error(`tag ${tag} not in IFD0`);
}

describe('metadata bytes: only what exifr reads', () => {
  test('JPEG with 8 MB of image data: the segments before the scan, the same metadata as the whole file', async () => {
    const jpeg = fs.readFileSync(corpusPath('exif', 'Olympus_E-P3.jpg'));
    const big = Buffer.concat([jpeg, Buffer.alloc(8 << 20, 0x5a)]);
    const src = counted(big);
    const { bytes, limited } = await metadataBytes(src);
    assert.equal(limited, null);
    assert.ok(src.bytesRead <= 128 * 1024, `read ${src.bytesRead} bytes`);
    assert.ok(bytes.length < 64 * 1024, `handed ${bytes.length} bytes to exifr`);
    assert.deepEqual(await parsed(bytes), await parsed(big));
  });

  test('JPEG whose metadata segments go on past the first read (multi-segment XMP): followed to the scan', async () => {
    const jpeg = fs.readFileSync(corpusPath('exif', 'Olympus_E-P3.jpg'));
    // 40 APP1 XMP segments of 60 KB (2.4 MB, as Google's depth-map JPEGs carry) after SOI.
    const filler = Buffer.alloc(60_000, 0x20);
    const app1 = (i: number) => {
      const body = Buffer.concat([Buffer.from(`http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- ${i} -->`, 'latin1'), filler, Buffer.from('</x:xmpmeta>', 'latin1')]);
      const head = Buffer.from([0xff, 0xe1, 0, 0]);
      head.writeUInt16BE(body.length + 2, 2);
      return Buffer.concat([head, body]);
    };
    const big = Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: 40 }, (_, i) => app1(i)), jpeg.subarray(2), Buffer.alloc(4 << 20)]);
    const src = counted(big);
    const { bytes } = await metadataBytes(src);
    const segments = big.length - jpeg.length - (4 << 20);
    const own = await metadataBytes(bufferSource(jpeg)); // the original's header, up to its SOS
    assert.equal(bytes.length, segments + own.bytes.length, 'up to and including the SOS marker and its length');
    assert.deepEqual([...bytes.subarray(-4, -2)], [0xff, 0xda]);
    assert.ok(src.bytesRead < bytes.length * 2 && src.reads < 10, `read ${src.bytesRead} bytes in ${src.reads} reads`);
    assert.deepEqual(await parsed(bytes), await parsed(big));
  });

  test('JPEG head followed by garbage and no scan: bounded', async () => {
    const big = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(MAX_METADATA_BYTES + (4 << 20), 0x11)]);
    const src = counted(big);
    const { bytes, limited } = await metadataBytes(src);
    assert.equal(bytes.length, MAX_METADATA_BYTES);
    assert.ok(src.bytesRead <= MAX_METADATA_BYTES);
    assert.match(limited ?? '', /first 16 MiB/);
  });

  test('TIFF RAW (NEF, 4 MB): the IFDs and their values only, the same metadata as the whole file', async () => {
    const nef = fs.readFileSync(corpusPath('raw', 'RAW_NIKON_D1.NEF'));
    const src = counted(nef);
    const { bytes } = await metadataBytes(src);
    assert.ok(src.bytesRead < 256 * 1024, `read ${src.bytesRead} of ${nef.length} bytes`);
    assert.deepEqual(await parsed(bytes), await parsed(nef));
  });

  test('DNG with its XMP moved 40 MB behind the image data: the far block is read in place, nothing between', async () => {
    const dng = moveTiffValueFar(fs.readFileSync(corpusPath('raw', 'nikon_z9_overexposed.dng')), 0x02bc, 40 << 20);
    const src = counted(dng);
    const { bytes, limited } = await metadataBytes(src);
    assert.equal(limited, null);
    assert.ok(src.bytesRead <= MAX_METADATA_BYTES + 64 * 1024, `read ${src.bytesRead} of ${dng.length} bytes`);
    const whole = (await parsed(dng)) as { xmp?: string };
    assert.match(whole.xmp ?? '', /x:xmpmeta/);
    assert.deepEqual(await parsed(bytes), whole);
  });

  test('PNG with its metadata after 8 MB of image data: the metadata chunks only', async () => {
    const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="4"/></rdf:RDF></x:xmpmeta>';
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(16, 0);
    ihdr.writeUInt32BE(16, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', ihdr),
      ...Array.from({ length: 128 }, () => pngChunk('IDAT', Buffer.alloc(64 * 1024, 0x33))),
      pngChunk('iTXt', Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${xmp}`, 'latin1')),
      pngChunk('tEXt', Buffer.from('Comment\0after the pixels', 'latin1')),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
    const src = counted(png);
    const { bytes } = await metadataBytes(src);
    // The first 128 KiB (one read, as for every format), then 8-byte chunk headers and the metadata chunks.
    assert.ok(src.bytesRead < 128 * 1024 + 128 * 8 + 1024, `read ${src.bytesRead} of ${png.length} bytes`);
    const whole = (await parsed(png)) as { xmp?: string };
    assert.match(whole.xmp ?? '', /xmp:Rating="4"/);
    assert.deepEqual(await parsed(bytes), whole);
  });
});

describe('photo metadata of a huge file', () => {
  const dir = tempDir('huge');

  test('a 12 MP JPEG padded to 512 MB: full metadata, a few hundred KB read, no memory growth', async () => {
    const file = path.join(dir, 'padded.jpg');
    fs.copyFileSync(corpusPath('exif', 'Olympus_E-P3.jpg'), file);
    fs.truncateSync(file, 512 * 1024 * 1024); // sparse: the tail costs no disk space
    const rchar = () => {
      try {
        return Number(/rchar:\s*(\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1]);
      } catch {
        return NaN; // not Linux: the memory check below still applies
      }
    };
    const before = rchar();
    const rssBefore = process.memoryUsage().rss;
    const { metadata, warnings } = await extractPhotoMetadata(file);
    const read = rchar() - before;
    const grown = process.memoryUsage().rss - rssBefore;
    assert.equal(metadata.make, 'OLYMPUS IMAGING CORP.');
    assert.deepEqual([metadata.width, metadata.height], [4032, 3024]);
    assert.deepEqual(warnings, []);
    if (Number.isFinite(read)) assert.ok(read < 4 * 1024 * 1024, `read ${read} bytes of a 512 MB file`);
    assert.ok(grown < 64 * 1024 * 1024, `resident set grew by ${(grown / 2 ** 20).toFixed(0)} MB`);
  });
});

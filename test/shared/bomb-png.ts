/**
 * PNG bytes for tests: one chunk (`pngChunk`), and a decompression bomb: a ~60-byte PNG whose header claims `width` × `height` pixels (100,000² by
 * default: 30 GB of RGB once decoded). A decoder must refuse it from the header, never by trying.
 */
import zlib from 'node:zlib';

/** One PNG chunk: length, type, body, CRC-32. */
export function pngChunk(type: string, body: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([len, typed, crc]);
}

export function bombPng(width = 100_000, height = 100_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(1000))), pngChunk('IEND', Buffer.alloc(0))]);
}

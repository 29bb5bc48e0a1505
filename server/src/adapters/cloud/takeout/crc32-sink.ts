/**
 * Writes a stream of bytes to a file while counting them and computing their CRC-32, so an extracted entry can be
 * checked against what its archive declared (zip gives the CRC; tar gives only the size).
 */
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

export interface WrittenFile {
  bytes: number;
  crc32: number;
}

export async function writeCounted(
  source: Readable | AsyncIterable<Buffer>,
  dest: string,
  signal: AbortSignal,
  onProgress?: (bytes: number) => void,
): Promise<WrittenFile> {
  let bytes = 0;
  let crc = 0;
  const tally = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      crc = zlib.crc32(chunk, crc);
      onProgress?.(bytes);
      done(null, chunk);
    },
  });
  await pipeline(source, tally, fs.createWriteStream(dest), { signal });
  return { bytes, crc32: crc };
}

/**
 * The bytes of a file, for libvips (sharp) to decode, instead of its path.
 *
 * Why: given a path, libvips maps the file into memory. If the file shrinks while it is being
 * decoded (a sync client or a photo editor saving over it: truncate, then write), touching a page
 * past the new end raises SIGBUS, which kills the whole server: no exception, nothing to catch,
 * every member's session gone. Plain reads only ever see a short file, which the decoder reports as
 * a damaged image (the job fails visibly and the watcher's next event indexes the new version).
 *
 * Cost: the file is in memory while it is decoded; the decoder needs that much for its pixels
 * anyway (a 200 MP limit applies, image-source.ts). Files larger than `MAX_DECODE_BYTES` are
 * refused rather than read whole.
 */
import fs from 'node:fs/promises';
import { MediaDecodeError } from './errors.ts';

/** No camera file or scan we decode comes near this; above it a file is refused, not read whole. */
export const MAX_DECODE_BYTES = 2 ** 31 - 1;

export async function stableInput(filePath: string): Promise<Buffer> {
  const { size } = await fs.stat(filePath);
  if (size > MAX_DECODE_BYTES) throw new MediaDecodeError(filePath, `the file is ${size} bytes; at most ${MAX_DECODE_BYTES} are decoded`);
  return fs.readFile(filePath);
}

/**
 * At most the first `maxBytes` of a file, for reading an image's header (its size and orientation)
 * without its pixels: every header sharp reads sits at the start of the file for the formats it
 * opens here (JPEG frame header, PNG IHDR, WebP/AVIF/HEIF boxes); a TIFF whose directory lies past
 * this prefix answers with an error, and the caller falls back to the EXIF sizes.
 */
export async function stableHead(filePath: string, maxBytes: number): Promise<Buffer> {
  const handle = await fs.open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const buf = Buffer.alloc(Math.min(size, maxBytes));
    let read = 0;
    while (read < buf.length) {
      const { bytesRead } = await handle.read(buf, read, buf.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buf.subarray(0, read);
  } finally {
    await handle.close();
  }
}

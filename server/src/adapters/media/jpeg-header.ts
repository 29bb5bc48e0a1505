/**
 * Read a JPEG's frame header (SOFn) without decoding: its size and its coding process.
 *
 * RAW containers hold several "JPEG" streams: real previews (baseline/progressive, SOF0-2) and the sensor data
 * itself in lossless JPEG (SOF3), which no image library decodes into a viewable picture. Looking at the SOF
 * marker tells them apart and gives each preview's size without decoding it, so the largest can be chosen.
 */
import type { ByteSource } from './byte-source.ts';

export interface JpegFrame {
  width: number;
  height: number;
  /** SOF marker number: 0 baseline, 1 extended, 2 progressive, 3 lossless, ... */
  process: number;
}

const MAX_MARKERS = 256;

/** Parse markers from `offset` until the first SOF. Null when the bytes there are not a JPEG. */
export async function readJpegFrame(src: ByteSource, offset: number, length: number): Promise<JpegFrame | null> {
  const end = Math.min(src.size, offset + length);
  const soi = await src.read(offset, 2);
  if (soi.length < 2 || soi[0] !== 0xff || soi[1] !== 0xd8) return null;
  let at = offset + 2;
  for (let i = 0; i < MAX_MARKERS && at + 4 <= end; i++) {
    const m = await src.read(at, 4);
    if (m.length < 4 || m[0] !== 0xff) return null;
    const marker = m[1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    const segLen = (m[2]! << 8) | m[3]!;
    if (segLen < 2) return null;
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const sof = await src.read(at + 4, 5);
      if (sof.length < 5) return null;
      return { height: (sof[1]! << 8) | sof[2]!, width: (sof[3]! << 8) | sof[4]!, process: marker - 0xc0 };
    }
    if (marker === 0xda || marker === 0xd9) return null; // scan or end before any frame header
    at += 2 + segLen;
  }
  return null;
}

/** A preview a browser-grade decoder can show: baseline, extended or progressive Huffman JPEG. */
export function isViewableJpeg(frame: JpegFrame | null): frame is JpegFrame {
  return !!frame && frame.process <= 2 && frame.width > 0 && frame.height > 0;
}

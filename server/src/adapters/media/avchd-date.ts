/**
 * The capture time of AVCHD (.mts/.m2ts) clips, which ffprobe does not show: cameras (Sony, Panasonic,
 * Canon) write it in the H.264 stream, in an SEI "MDPM" block (Modified Digital Video Pack Metadata).
 * Without it such a clip had no capture time and was filed by its upload day.
 *
 * Layout (as ExifTool's H264.pm reads it): "MDPM", a count, then count × (tag byte + 4 bytes), inside
 * an H.264 NAL unit, so "00 00 03" emulation-prevention bytes must be dropped first. Tag 0x18 holds
 * [zone, year (BCD, 2 bytes), month (BCD)], tag 0x19 [day, hour, minute, second] (BCD). The zone byte:
 * 0x20 = minus, bits 1-4 = hours, bit 0 = +30 minutes, 0x40 = daylight saving (already in the hours);
 * 0xff (some Sony and Canon models) = not recorded, then the time is the camera's clock.
 */
import fs from 'node:fs/promises';
import { parseWallClock, toTakenTime } from './capture-time.ts';

/** The block sits in the first frames; a few MB cover it without reading a long clip. */
const SCAN_BYTES = 4 * 1024 * 1024;
const MARK = Buffer.from('MDPM', 'latin1');

const bcd = (b: number) => (b >> 4) * 10 + (b & 0x0f);
const two = (n: number) => String(n).padStart(2, '0');

/** Drop H.264 emulation-prevention bytes (00 00 03 → 00 00). */
function unescape(bytes: Buffer): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const b of bytes) {
    if (zeros >= 2 && b === 0x03) {
      zeros = 0;
      continue;
    }
    out.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

export interface AvchdTime {
  /** ISO in UTC per capture-time.ts (true instant with an offset, else the camera's clock as if UTC). */
  iso: string;
  offsetMinutes: number | null;
}

/** Parse the first MDPM block of `data` that holds a valid date (pure; unit-testable). */
export function avchdTimeFrom(data: Buffer): AvchdTime | null {
  for (let at = data.indexOf(MARK); at !== -1; at = data.indexOf(MARK, at + 1)) {
    const block = unescape(data.subarray(at + 4, at + 4 + 1 + 5 * 32));
    const count = block[0] ?? 0;
    const tags = new Map<number, Buffer>();
    for (let k = 0; k < count && 1 + 5 * k + 5 <= block.length; k++) tags.set(block[1 + 5 * k]!, block.subarray(2 + 5 * k, 6 + 5 * k));
    const a = tags.get(0x18);
    const b = tags.get(0x19);
    if (!a || !b) continue;
    const year = bcd(a[1]!) * 100 + bcd(a[2]!);
    const wall = parseWallClock(`${year}-${two(bcd(a[3]!))}-${two(bcd(b[0]!))}T${two(bcd(b[1]!))}:${two(bcd(b[2]!))}:${two(bcd(b[3]!))}`);
    if (!wall) continue;
    const zone = a[0]!;
    const offsetMinutes = zone === 0xff ? null : ((zone & 0x20) ? -1 : 1) * (((zone >> 1) & 0x0f) * 60 + (zone & 0x01) * 30);
    return { iso: toTakenTime(wall.local, offsetMinutes), offsetMinutes: offsetMinutes === 0 ? 0 : offsetMinutes };
  }
  return null;
}

/** The capture time of an AVCHD file, or null when it has none (or is not one). */
export async function readAvchdTime(file: string): Promise<AvchdTime | null> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(SCAN_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SCAN_BYTES, 0);
    return avchdTimeFrom(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * Media the tests make at run time (never committed): short clips from ffmpeg's test sources, files cut
 * short, noise PNGs. Everything is written to a fresh temporary folder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

export function scratchDir(prefix = 'hearth-made-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A short H.264 clip (with AAC audio unless `audio: false`) and any extra ffmpeg output options. */
export function makeClip(out: string, opts: { seconds?: number; size?: string; audio?: boolean; args?: string[] } = {}): Buffer {
  const seconds = String(opts.seconds ?? 2);
  const inputs = ['-f', 'lavfi', '-i', `testsrc=size=${opts.size ?? '160x120'}:rate=15`];
  if (opts.audio !== false) inputs.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050');
  const codecs = ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', ...(opts.audio !== false ? ['-c:a', 'aac', '-shortest'] : [])];
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-t', seconds, ...codecs, ...(opts.args ?? []), out], { stdio: ['ignore', 'ignore', 'pipe'] });
  return fs.readFileSync(out);
}

/** The first `fraction` of the bytes (a copy or upload interrupted part way). */
export function cutShort(bytes: Buffer, fraction = 0.5): Buffer {
  return Buffer.from(bytes.subarray(0, Math.floor(bytes.length * fraction)));
}

/** A PNG of noise (so that its compressed data spans the whole file). */
export function noisePng(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();
}

export type MotionDialect = 'MotionPhoto' | 'MicroVideo';

/** The XMP a Samsung/Google camera writes into a motion photo, in one of the two dialects. */
export function motionPhotoXmp(dialect: MotionDialect, videoLength: number, presentationUs = 500_000): string {
  const camera =
    dialect === 'MotionPhoto'
      ? `GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="${presentationUs}"`
      : `GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="${videoLength}" GCamera:MicroVideoPresentationTimestampUs="${presentationUs}"`;
  const directory =
    dialect === 'MotionPhoto'
      ? `<Container:Directory><rdf:Seq>` +
        `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li>` +
        `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="${videoLength}" Item:Padding="0"/></rdf:li>` +
        `</rdf:Seq></Container:Directory>`
      : '';
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
    `<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" ` +
    `xmlns:Item="http://ns.google.com/photos/1.0/container/item/" ${camera}>${directory}</rdf:Description>` +
    `</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
  );
}

/** A JPEG with `xmp` in an APP1 segment right after its start marker. */
export function withXmp(jpeg: Buffer, xmp: string): Buffer {
  const payload = Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(xmp, 'utf8')]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

/** A camera-like motion photo: a JPEG still with the XMP of `dialect` and the MP4 clip appended. */
export async function motionPhotoJpeg(dialect: MotionDialect, clip: Buffer): Promise<Buffer> {
  const still = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 120, b: 200 } } }).jpeg().toBuffer();
  return Buffer.concat([withXmp(still, motionPhotoXmp(dialect, clip.length)), clip]);
}

/** One TIFF directory entry: ASCII strings, LONG numbers, or BYTE/UNDEFINED arrays. */
type TiffValue = string | number[] | { bytes: Buffer; type: 1 | 7 } | { longs: Buffer };

/**
 * A TIFF directory chain as camera RAWs write it (little-endian): `header` is the file's first bytes
 * ("II*\0" for NEF/ARW/DNG/PEF/SRW, "IIRO" for ORF, "IIU\0" for RW2; CR2 adds "CR\x02\0" and the RAW IFD's
 * offset), IFD0 right after it, and an Exif IFD (0x8769) with `exif`. No image data at all: the file is what
 * a RAW is when nothing but its metadata survived (no preview, no sensor data).
 */
export function tiffRaw(header: Buffer, ifd0: Record<number, TiffValue>, exif: Record<number, TiffValue>): Buffer {
  const encode = (v: TiffValue): { type: number; count: number; data: Buffer } => {
    if (typeof v === 'string') return { type: 2, count: v.length + 1, data: Buffer.from(`${v}\0`, 'latin1') };
    if (Array.isArray(v)) {
      const data = Buffer.alloc(4 * v.length);
      v.forEach((n, i) => data.writeUInt32LE(n, 4 * i));
      return { type: 4, count: v.length, data };
    }
    if ('longs' in v) return { type: 4, count: v.longs.length / 4, data: v.longs };
    return { type: v.type, count: v.bytes.length, data: v.bytes };
  };
  // Both directories are written first, their out-of-line values after them.
  const exifEntries = Object.entries(exif).map(([t, v]) => [Number(t), encode(v)] as const);
  const ifd0Entries = [...Object.entries(ifd0).map(([t, v]) => [Number(t), encode(v)] as const), [0x8769, { type: 4, count: 1, data: Buffer.alloc(4) }] as const].sort((a, b) => a[0] - b[0]);
  const ifdSize = (n: number) => 2 + 12 * n + 4;
  const ifd0At = header.length;
  const exifAt = ifd0At + ifdSize(ifd0Entries.length);
  let valueAt = exifAt + ifdSize(exifEntries.length);
  const values: Buffer[] = [];
  const table = (entries: ReadonlyArray<readonly [number, { type: number; count: number; data: Buffer }]>) => {
    const b = Buffer.alloc(ifdSize(entries.length));
    b.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, e], i) => {
      const at = 2 + 12 * i;
      b.writeUInt16LE(tag, at);
      b.writeUInt16LE(e.type, at + 2);
      b.writeUInt32LE(e.count, at + 4);
      if (tag === 0x8769) b.writeUInt32LE(exifAt, at + 8);
      else if (e.data.length <= 4) e.data.copy(b, at + 8);
      else {
        b.writeUInt32LE(valueAt, at + 8);
        const padded = Buffer.concat([e.data, Buffer.alloc(e.data.length % 2)]);
        values.push(padded);
        valueAt += padded.length;
      }
    });
    return b;
  };
  const head = Buffer.from(header);
  head.writeUInt32LE(ifd0At, 4);
  return Buffer.concat([head, table(ifd0Entries), table(exifEntries), ...values]);
}

/** An IPTC IIM record (caption, keywords) padded to whole LONGs, as Nikon Capture and Photoshop store it in TIFF tag 0x83BB. */
export function iptcAsLongs(caption: string): { longs: Buffer } {
  const dataset = (n: number, text: string) => Buffer.concat([Buffer.from([0x1c, 0x02, n, 0, text.length]), Buffer.from(text, 'latin1')]);
  const record = Buffer.concat([dataset(0x78, caption), dataset(0x19, 'holiday')]);
  return { longs: Buffer.concat([record, Buffer.alloc((4 - (record.length % 4)) % 4)]) };
}

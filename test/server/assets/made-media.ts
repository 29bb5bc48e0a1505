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

/** The XMP packet a camera or an editor writes into a movie, with `dateTimeOriginal` as exif:DateTimeOriginal. */
export function movieXmp(dateTimeOriginal: string): string {
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
    `<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="${dateTimeOriginal}"/>` +
    `</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
  );
}

/** A movie with an XMP `uuid` box (BE7ACFCB-97A9-42E8-9C71-999491E3AFAC) appended at its top level. */
export function withXmpBox(movie: Buffer, dateTimeOriginal: string): Buffer {
  const xmp = Buffer.from(movieXmp(dateTimeOriginal), 'utf8');
  const header = Buffer.alloc(24);
  header.writeUInt32BE(24 + xmp.length, 0);
  header.write('uuid', 4, 'latin1');
  Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex').copy(header, 8);
  return Buffer.concat([movie, header, xmp]);
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

/** ISO-BMFF box: 32-bit size, type, payload. */
export function bmffBox(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
}

interface TopBox {
  type: string;
  start: number;
  end: number;
}

function boxesIn(b: Buffer, start: number, end: number): TopBox[] {
  const out: TopBox[] = [];
  for (let at = start; at + 8 <= end; ) {
    // 1: a 64-bit size follows the type (iPhones write their mdat so).
    const size = b.readUInt32BE(at) === 1 ? Number(b.readBigUInt64BE(at + 8)) : b.readUInt32BE(at);
    if (size < 8) throw new Error(`box of size ${size} at ${at}: not handled here`);
    out.push({ type: b.toString('latin1', at + 4, at + 8), start: at, end: at + size });
    at += size;
  }
  return out;
}

const readSized = (b: Buffer, at: number, size: number) => (size === 0 ? 0 : size === 4 ? b.readUInt32BE(at) : size === 8 ? Number(b.readBigUInt64BE(at)) : b.readUInt16BE(at));
function writeSized(b: Buffer, at: number, size: number, v: number): void {
  if (size === 4) b.writeUInt32BE(v, at);
  else if (size === 8) b.writeBigUInt64BE(BigInt(v), at);
  else if (size === 2) b.writeUInt16BE(v, at);
  else if (v !== 0) throw new Error('a zero-sized iloc field cannot hold a value');
}

/**
 * A real HEIC with one more item: an XMP packet (a `mime` item, content type application/rdf+xml, as
 * Samsung, Google and Apple write it), its bytes in an `mdat` box appended after the file's boxes, then
 * `tail` (a motion photo's clip, bare or in its box). The `meta` box grows by the new item's entries, so
 * every item location behind it is moved by as much: the still decodes as before.
 */
export function heicWithXmpItem(heic: Buffer, xmp: string, tail: Buffer = Buffer.alloc(0), opts: { describesPrimary?: boolean } = {}): Buffer {
  const top = boxesIn(heic, 0, heic.length);
  const meta = top.find((b) => b.type === 'meta')!;
  const children = boxesIn(heic, meta.start + 12, meta.end);
  const iinf = children.find((b) => b.type === 'iinf')!;
  const iloc = children.find((b) => b.type === 'iloc')!;
  const iref = children.find((b) => b.type === 'iref');
  const pitm = children.find((b) => b.type === 'pitm')!;
  if (iref && heic[iref.start + 8] !== 0) throw new Error('32-bit iref ids are not handled here');
  const primary = heic.readUInt16BE(pitm.start + 12);

  // iloc: every entry as it is, offsets behind `meta` moved by the growth; then the new entry.
  const p = heic.subarray(iloc.start + 8, iloc.end);
  const version = p[0]!;
  const [offSize, lenSize, baseSize] = [p[4]! >> 4, p[4]! & 0xf, p[5]! >> 4];
  const idxSize = version >= 1 ? p[5]! & 0xf : 0;
  const idSize = version < 2 ? 2 : 4;
  let at = 6;
  const count = version < 2 ? p.readUInt16BE(at) : p.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  const entries: { id: number; method: number; base: number; extents: { index: number; offset: number; length: number }[]; ref: number }[] = [];
  for (let i = 0; i < count; i++) {
    const id = readSized(p, at, idSize);
    at += idSize;
    const method = version >= 1 ? p.readUInt16BE(at) & 0xf : 0;
    if (version >= 1) at += 2;
    const ref = p.readUInt16BE(at);
    at += 2;
    const base = readSized(p, at, baseSize);
    at += baseSize;
    const n = p.readUInt16BE(at);
    at += 2;
    const extents = [];
    for (let e = 0; e < n; e++) {
      const index = readSized(p, at, idxSize);
      at += idxSize;
      const offset = readSized(p, at, offSize);
      at += offSize;
      const length = readSized(p, at, lenSize);
      at += lenSize;
      extents.push({ index, offset, length });
    }
    entries.push({ id, method, base, extents, ref });
  }
  const newId = Math.max(...entries.map((e) => e.id)) + 1;
  const name = 'XMP\0';
  const contentType = 'application/rdf+xml\0';
  const infe = bmffBox('infe', Buffer.concat([Buffer.from([2, 0, 0, 0]), Buffer.from([newId >> 8, newId & 0xff, 0, 0]), Buffer.from(`mime${name}${contentType}`, 'latin1')]));
  if (newId > 0xffff) throw new Error('item ids beyond 16 bits are not handled here');
  const entrySize = idSize + (version >= 1 ? 2 : 0) + 2 + baseSize + 2 + idxSize + offSize + lenSize;
  // With `describesPrimary`, a `cdsc` reference says the XMP describes the primary image (as cameras link it).
  const cdsc = bmffBox('cdsc', Buffer.from([newId >> 8, newId & 0xff, 0, 1, primary >> 8, primary & 0xff]));
  const irefGrowth = opts.describesPrimary ? cdsc.length + (iref ? 0 : 12) : 0;
  const growth = infe.length + entrySize + irefGrowth;
  const xmpBytes = Buffer.from(xmp, 'utf8');
  const xmpAt = heic.length + growth + 8; // payload of the mdat appended after the file
  entries.push({ id: newId, method: 0, base: 0, extents: [{ index: 0, offset: xmpAt, length: xmpBytes.length }], ref: 0 });

  const ilocOut = Buffer.alloc(p.length + entrySize);
  p.copy(ilocOut, 0, 0, 6);
  if (version < 2) ilocOut.writeUInt16BE(entries.length, 6);
  else ilocOut.writeUInt32BE(entries.length, 6);
  at = version < 2 ? 8 : 10;
  for (const e of entries) {
    const moves = e.method === 0 && e.id !== newId;
    writeSized(ilocOut, at, idSize, e.id);
    at += idSize;
    if (version >= 1) {
      ilocOut.writeUInt16BE(e.method, at);
      at += 2;
    }
    ilocOut.writeUInt16BE(e.ref, at);
    at += 2;
    const baseMoves = moves && e.base >= meta.end;
    writeSized(ilocOut, at, baseSize, baseMoves ? e.base + growth : e.base);
    at += baseSize;
    ilocOut.writeUInt16BE(e.extents.length, at);
    at += 2;
    for (const x of e.extents) {
      writeSized(ilocOut, at, idxSize, x.index);
      at += idxSize;
      writeSized(ilocOut, at, offSize, moves && !baseMoves && e.base + x.offset >= meta.end ? x.offset + growth : x.offset);
      at += offSize;
      writeSized(ilocOut, at, lenSize, x.length);
      at += lenSize;
    }
  }

  // iinf: one more entry.
  const iinfPayload = Buffer.from(heic.subarray(iinf.start + 8, iinf.end));
  if (iinfPayload[0] === 0) iinfPayload.writeUInt16BE(iinfPayload.readUInt16BE(4) + 1, 4);
  else iinfPayload.writeUInt32BE(iinfPayload.readUInt32BE(4) + 1, 4);

  const newIref = (old: Buffer) => bmffBox('iref', Buffer.concat([old, cdsc]));
  const metaChildren = children.map((c) =>
    c === iinf
      ? bmffBox('iinf', Buffer.concat([iinfPayload, infe]))
      : c === iloc
        ? bmffBox('iloc', ilocOut)
        : c === iref && opts.describesPrimary
          ? newIref(heic.subarray(c.start + 8, c.end))
          : heic.subarray(c.start, c.end),
  );
  if (opts.describesPrimary && !iref) metaChildren.push(newIref(Buffer.alloc(4)));
  const newMeta = bmffBox('meta', Buffer.concat([heic.subarray(meta.start + 8, meta.start + 12), ...metaChildren]));
  const rest = top.map((b) => (b === meta ? newMeta : heic.subarray(b.start, b.end)));
  return Buffer.concat([...rest, bmffBox('mdat', xmpBytes), tail]);
}

/** A Samsung trailer (SEF) of named entries, as ExifTool's Samsung.pm describes it: the data, the "SEFH" directory, its length and "SEFT". */
function samsungTrailer(entries: { type: number; name: string; data: Buffer }[]): Buffer {
  const blocks = entries.map((e) => {
    const head = Buffer.alloc(8);
    head.writeUInt16LE(e.type, 2);
    head.writeUInt32LE(e.name.length, 4);
    return Buffer.concat([head, Buffer.from(e.name, 'latin1'), e.data]);
  });
  const dir = Buffer.alloc(12 + 12 * blocks.length);
  dir.write('SEFH', 0, 'latin1');
  dir.writeUInt32LE(107, 4);
  dir.writeUInt32LE(blocks.length, 8);
  const total = blocks.reduce((n, b) => n + b.length, 0);
  let before = total; // distance from each block's start to the directory
  blocks.forEach((b, i) => {
    dir.writeUInt16LE(entries[i]!.type, 12 + 12 * i + 2);
    dir.writeUInt32LE(before, 12 + 12 * i + 4);
    dir.writeUInt32LE(b.length, 12 + 12 * i + 8);
    before -= b.length;
  });
  const end = Buffer.alloc(8);
  end.writeUInt32LE(dir.length, 0);
  end.write('SEFT', 4, 'latin1');
  return Buffer.concat([...blocks, dir, end]);
}

const IMAGE_UTC = { type: 0x0a01, name: 'Image_UTC_Data', data: Buffer.from('1705124333853', 'latin1') };

/** A Samsung motion photo JPEG without any XMP: the clip after the `MotionPhoto_Data` entry of its trailer. */
export function samsungTrailerJpeg(jpeg: Buffer, clip: Buffer): Buffer {
  return Buffer.concat([jpeg, samsungTrailer([IMAGE_UTC, { type: 0x0a30, name: 'MotionPhoto_Data', data: clip }])]);
}

/** A Samsung motion photo HEIC without any XMP: the clip in an `mpvd` box after the HEIF boxes, then `sefd`. */
export function samsungMpvdHeic(heic: Buffer, clip: Buffer): Buffer {
  // In a HEIC the trailer's MotionPhoto_Data entry only points at the mpvd box ("mpv2" ...), as Samsung writes it.
  const sefd = bmffBox('sefd', samsungTrailer([IMAGE_UTC, { type: 0x0a30, name: 'MotionPhoto_Data', data: Buffer.from('mpv2\0\0\0\0\0\0\0\0', 'latin1') }]));
  return Buffer.concat([heic, bmffBox('mpvd', clip), sefd]);
}

/**
 * A movie's own metadata, read from its MP4/MOV (ISO-BMFF, QuickTime) boxes without ffprobe.
 *
 * Why: ffprobe is an optional download. Without it a video still has its size, duration, capture time and
 * place in the catalog (the pipeline keeps them while the video waits for the tool, see pipeline.ts); with it,
 * these boxes still matter, because ffprobe does not read the XMP packet that cameras and editors put in a
 * `uuid` box (or QuickTime's `udta/XMP_`), and that packet may hold the only zoned capture time.
 *
 * What is read, and only that (box headers and small boxes; `mdat` is never read, the `moov` may sit at the
 * start or the end of the file):
 *   moov/mvhd                 creation time (seconds since 1904-01-01 UTC), timescale, duration
 *   moov/trak/tkhd            displayed width/height and the rotation of its matrix (video tracks)
 *   moov/trak/mdia/hdlr       which track is video or sound; …/minf/stbl/stsd: the codec's four-character code
 *   moov/udta/©xyz, ©day, ©mak, ©mod   QuickTime user data (ISO 6709 place, date, camera)
 *   moov/udta/loci                     3GPP location (fixed-point longitude, latitude, altitude)
 *   moov[/udta]/meta keys+ilst         QuickTime keys (com.apple.quicktime.location.ISO6709, creationdate, make, model,
 *                                      content.identifier) and iTunes-style ©day/©xyz items
 *   uuid BE7ACFCB-97A9-42E8-9C71-999491E3AFAC (top level or in moov/udta), moov/udta/XMP_: the XMP packet
 * Damaged, cut short or hostile boxes give what could be read before them; this never throws for content.
 */
import { readBoxes, type Box } from './bmff.ts';
import type { ByteSource } from './byte-source.ts';

/** One QuickTime/MP4 metadata value found in the boxes, by the name ffprobe would give it. */
export interface MovieBoxes {
  /** `qt  ` for QuickTime files, else the ftyp's major brand ("isom", "mp42", "3gp5"). */
  brand: string | null;
  /** mvhd creation time as an ISO instant (UTC), or null when zero/absent. */
  creation_time: string | null;
  /** Seconds (mvhd duration / timescale, else the longest track). */
  duration: number | null;
  /** tkhd width/height of the first video track, before rotation. */
  width: number | null;
  height: number | null;
  /** Clockwise degrees from the video track's matrix: 0, 90, 180 or 270. */
  rotation: number;
  /** Four-character codes of the first video and sound sample entries ("avc1", "hvc1", "mp4a"). */
  video_fourcc: string | null;
  audio_fourcc: string | null;
  /** Text metadata by ffprobe's names: "com.apple.quicktime.creationdate", "location", "date", "make", … */
  tags: Record<string, string>;
  /** The XMP packet, when the movie carries one. */
  xmp: Uint8Array | null;
}

const XMP_UUID = 'be7acfcb97a942e89c71999491e3afac';
/** Seconds from 1904-01-01 (QuickTime's epoch) to 1970-01-01. */
const EPOCH_1904 = 2_082_844_800;
/** The boxes read whole (mvhd, tkhd, keys, ilst, udta entries) are a few KB; larger ones are not trusted. */
const MAX_SMALL_BOX = 1024 * 1024;
const MAX_XMP = 8 * 1024 * 1024;
/** Tracks looked at: phones write 2–6; a file claiming thousands is not a camera's. */
const MAX_TRACKS = 64;

/** QuickTime user-data atoms and iTunes-style items, by the tag name ffprobe gives them. */
const UDTA_NAMES: Record<string, string> = { '©xyz': 'location', '©day': 'date', '©mak': 'make', '©mod': 'model' };

function ascii(b: Uint8Array): string {
  return String.fromCharCode(...b);
}

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** The payload of a small box, or null when it is larger than we read whole. */
async function small(src: ByteSource, box: Box, max = MAX_SMALL_BOX): Promise<Uint8Array | null> {
  const n = box.end - box.payload;
  return n >= 0 && n <= max ? src.read(box.payload, n) : null;
}

const child = (boxes: Box[], type: string) => boxes.find((b) => b.type === type);

/** Text without NULs and trailing blanks; null when empty or not text. */
function text(bytes: Uint8Array): string | null {
  const s = Buffer.from(bytes).toString('utf8').replace(/\0+$/g, '').trim();
  return s && !s.includes('\uFFFD') ? s : null;
}

/** 1904-based seconds → ISO instant; zero (an unset clock) is no date. */
function quickTimeInstant(seconds: number): string | null {
  if (!seconds || !Number.isFinite(seconds)) return null;
  const ms = (seconds - EPOCH_1904) * 1000;
  return ms > 0 && ms < 8.64e15 ? new Date(ms).toISOString() : null;
}

function parseMvhd(b: Uint8Array, out: MovieBoxes): void {
  const v = view(b);
  const version = b[0];
  if (version === 1 && b.length >= 32) {
    out.creation_time = quickTimeInstant(Number(v.getBigUint64(4)));
    const scale = v.getUint32(20);
    const duration = Number(v.getBigUint64(24));
    if (scale) out.duration = duration / scale;
  } else if (version === 0 && b.length >= 20) {
    out.creation_time = quickTimeInstant(v.getUint32(4));
    const scale = v.getUint32(12);
    const duration = v.getUint32(16);
    if (scale && duration !== 0xffffffff) out.duration = duration / scale;
  }
  if (out.duration !== null && !(out.duration > 0)) out.duration = null;
}

interface Tkhd {
  width: number;
  height: number;
  rotation: number;
}

function parseTkhd(b: Uint8Array): Tkhd | null {
  const matrixAt = b[0] === 1 ? 4 + 8 + 8 + 4 + 4 + 8 + 8 + 8 : 4 + 4 + 4 + 4 + 4 + 4 + 8 + 8;
  if (b.length < matrixAt + 36 + 8) return null;
  const v = view(b);
  const a = v.getInt32(matrixAt) / 65536;
  const bb = v.getInt32(matrixAt + 4) / 65536;
  // The matrix maps the coded picture to the display: [a b; c d] = [cos θ, sin θ; −sin θ, cos θ] for a
  // clockwise turn of θ (a portrait iPhone clip: a = 0, b = 1, i.e. 90°).
  const degrees = (Math.atan2(bb, a) * 180) / Math.PI;
  const rotation = Number.isFinite(degrees) ? ((((Math.round(degrees / 90) * 90) % 360) + 360) % 360) : 0;
  return { width: Math.round(v.getUint32(matrixAt + 36) / 65536), height: Math.round(v.getUint32(matrixAt + 40) / 65536), rotation };
}

/** hdlr's handler type ("vide", "soun", "mdta", "mdir"). */
async function handlerType(src: ByteSource, boxes: Box[]): Promise<string | null> {
  const hdlr = child(boxes, 'hdlr');
  const b = hdlr ? await src.read(hdlr.payload, 12) : null;
  return b && b.length >= 12 ? ascii(b.subarray(8, 12)) : null;
}

async function readTrack(src: ByteSource, trak: Box, out: MovieBoxes): Promise<void> {
  const boxes = await readBoxes(src, trak.payload, trak.end);
  const mdia = child(boxes, 'mdia');
  const mdiaBoxes = mdia ? await readBoxes(src, mdia.payload, mdia.end) : [];
  const kind = await handlerType(src, mdiaBoxes);
  const minf = child(mdiaBoxes, 'minf');
  const stbl = minf ? child(await readBoxes(src, minf.payload, minf.end), 'stbl') : undefined;
  const stsd = stbl ? child(await readBoxes(src, stbl.payload, stbl.end), 'stsd') : undefined;
  // stsd: FullBox, entry count, then sample entries whose box type is the codec's four-character code.
  const entry = stsd ? (await readBoxes(src, stsd.payload + 8, stsd.end))[0] : undefined;
  const fourcc = entry && /^[\x20-\x7e]{4}$/.test(entry.type) ? entry.type.trim() : null;
  const tkhdBox = child(boxes, 'tkhd');
  const tkhd = tkhdBox ? await small(src, tkhdBox) : null;
  const header = tkhd ? parseTkhd(tkhd) : null;
  if (kind === 'vide' || (kind === null && header && header.width > 0)) {
    if (out.width === null && header && header.width > 0 && header.height > 0) Object.assign(out, { width: header.width, height: header.height, rotation: header.rotation });
    out.video_fourcc ??= fourcc;
  } else if (kind === 'soun') out.audio_fourcc ??= fourcc;
}

/** A QuickTime user-data text atom: 16-bit length, 16-bit language, then the text. */
function udtaText(b: Uint8Array): string | null {
  if (b.length < 4) return null;
  const n = view(b).getUint16(0);
  return n > 0 && 4 + n <= b.length ? text(b.subarray(4, 4 + n)) : text(b.subarray(4));
}

/** The text of an ilst item's `data` box (type 1 = UTF-8); null for images and numbers. */
async function dataText(src: ByteSource, item: Box): Promise<string | null> {
  for (const d of await readBoxes(src, item.payload, item.end)) {
    if (d.type !== 'data') continue;
    const b = await small(src, d);
    if (b && b.length >= 8 && (view(b).getUint32(0) & 0xffffff) === 1) return text(b.subarray(8));
  }
  return null;
}

/** meta: QuickTime keys + ilst (Apple's mdta) or iTunes-style ilst (mdir). */
async function readMeta(src: ByteSource, meta: Box, out: MovieBoxes): Promise<void> {
  // ISO's meta is a FullBox (4 bytes of version/flags before its children); QuickTime's is not.
  const head = await src.read(meta.payload, 8);
  const full = !(head.length >= 8 && ascii(head.subarray(4, 8)) === 'hdlr');
  const boxes = await readBoxes(src, meta.payload + (full ? 4 : 0), meta.end);
  const keysBox = child(boxes, 'keys');
  const keys: string[] = [];
  const kb = keysBox ? await small(src, keysBox) : null;
  if (kb && kb.length >= 8) {
    const v = view(kb);
    const count = v.getUint32(4);
    for (let i = 0, at = 8; i < count && at + 8 <= kb.length; i++) {
      const size = v.getUint32(at);
      if (size < 8 || at + size > kb.length) break;
      keys.push(Buffer.from(kb.subarray(at + 8, at + size)).toString('utf8'));
      at += size;
    }
  }
  const ilst = child(boxes, 'ilst');
  if (!ilst) return;
  for (const item of await readBoxes(src, ilst.payload, ilst.end)) {
    // With keys, an item's box "type" is its 1-based index into them.
    const raw = await src.read(item.start + 4, 4);
    const index = raw.length === 4 ? view(raw).getUint32(0) : 0;
    const name = keys.length && index >= 1 && index <= keys.length ? keys[index - 1]! : UDTA_NAMES[item.type];
    if (!name || name in out.tags) continue;
    const value = await dataText(src, item);
    if (value) out.tags[name] = value;
  }
}

/**
 * 3GPP TS 26.244 `loci`: version/flags, language, a NUL-terminated name (UTF-8, or UTF-16 with a BOM), role,
 * then longitude, latitude and altitude as signed 16.16 fixed point. Written as ISO 6709, as ffprobe does.
 */
function lociIso6709(b: Uint8Array): string | null {
  let at = 6;
  const utf16 = b[at] === 0xfe && b[at + 1] === 0xff;
  if (utf16) {
    at += 2;
    while (at + 1 < b.length && (b[at] !== 0 || b[at + 1] !== 0)) at += 2;
    at += 2;
  } else {
    while (at < b.length && b[at] !== 0) at++;
    at += 1;
  }
  at += 1; // role
  if (at + 12 > b.length) return null;
  const v = view(b);
  const [lon, lat, alt] = [v.getInt32(at) / 65536, v.getInt32(at + 4) / 65536, v.getInt32(at + 8) / 65536];
  const signed = (x: number, width: number) => `${x < 0 ? '-' : '+'}${Math.abs(x).toFixed(4).padStart(width + 5, '0')}`;
  return `${signed(lat, 2)}${signed(lon, 3)}${alt ? `${alt < 0 ? '-' : '+'}${Math.abs(alt).toFixed(3)}` : ''}/`;
}

async function readUdta(src: ByteSource, udta: Box, out: MovieBoxes): Promise<void> {
  for (const box of await readBoxes(src, udta.payload, udta.end)) {
    if (box.type === 'loci' && !('location' in out.tags)) {
      const b = await small(src, box);
      const value = b && lociIso6709(b);
      if (value) out.tags.location = value;
      continue;
    }
    const name = UDTA_NAMES[box.type];
    if (name && !(name in out.tags)) {
      const b = await small(src, box);
      const value = b && udtaText(b);
      if (value) out.tags[name] = value;
    } else if (box.type === 'meta') await readMeta(src, box, out);
    else if ((box.type === 'XMP_' || box.uuid === XMP_UUID) && !out.xmp) out.xmp = await small(src, box, MAX_XMP);
  }
}

/** The movie's own metadata; an empty result (all null) for files that are not ISO-BMFF movies. */
export async function readMovieBoxes(src: ByteSource): Promise<MovieBoxes> {
  const out: MovieBoxes = { brand: null, creation_time: null, duration: null, width: null, height: null, rotation: 0, video_fourcc: null, audio_fourcc: null, tags: {}, xmp: null };
  try {
    const top = await readBoxes(src, 0, src.size);
    const ftyp = child(top, 'ftyp');
    if (ftyp) {
      const b = await src.read(ftyp.payload, 4);
      if (b.length === 4) out.brand = ascii(b);
    }
    for (const box of top) if (box.uuid === XMP_UUID && !out.xmp) out.xmp = await small(src, box, MAX_XMP);
    const moov = child(top, 'moov');
    if (!moov) return out;
    const boxes = await readBoxes(src, moov.payload, moov.end);
    const mvhd = child(boxes, 'mvhd');
    const mb = mvhd ? await small(src, mvhd) : null;
    if (mb) parseMvhd(mb, out);
    for (const trak of boxes.filter((b) => b.type === 'trak').slice(0, MAX_TRACKS)) await readTrack(src, trak, out);
    // Apple's keys sit in moov/meta; ffmpeg and others use moov/udta (with its own meta).
    for (const box of boxes) {
      if (box.type === 'meta') await readMeta(src, box, out);
      else if (box.type === 'udta') await readUdta(src, box, out);
      else if (box.uuid === XMP_UUID && !out.xmp) out.xmp = await small(src, box, MAX_XMP);
    }
  } catch {
    // A malformed box: keep what was read before it.
  }
  return out;
}

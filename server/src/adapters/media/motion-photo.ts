/**
 * Motion photos: a still (JPEG or HEIC) with its short video appended to the same file, as Samsung and
 * Google cameras write them. Two XMP dialects say where the video is (both in the GCamera namespace,
 * http://ns.google.com/photos/1.0/camera/):
 *   - Motion Photo format 1.0: `GCamera:MotionPhoto="1"` and a `Container:Directory` whose items list the
 *     primary image and, after it, the `MotionPhoto` video with its `Item:Length`. Items follow the primary in
 *     order up to the end of the file, so the video starts `Length` (plus the lengths of any items after it)
 *     bytes before the end. Samsung HEICs wrap the clip in an `mpvd` box and may end with their own trailer.
 *   - MicroVideo (older Pixels): `GCamera:MicroVideo="1"` and `GCamera:MicroVideoOffset`, the distance in
 *     bytes from the end of the file to the start of the video.
 * Samsung cameras also write motion photos with no such XMP at all; the file's own structure says it then
 * (embeddedVideoClaim), the same for both containers:
 *   - HEIC: a top-level `mpvd` box after the HEIF boxes, holding the clip;
 *   - JPEG (and HEIC): the Samsung trailer at the end of the file ("SEFH" directory ... length, "SEFT"), whose
 *     `MotionPhoto_Data` entry is followed by the clip.
 * The XMP is a claim; the bytes must agree: the video must start with an ISO-BMFF `ftyp` box (a few bytes
 * of slack are searched, writers disagree on padding) and hold a `moov` box. The clip is the run of
 * well-formed MP4 boxes from there, so a trailer after it (Samsung's SEFT, or its `sefd` box in a HEIC) is
 * not part of it.
 */
import fs from 'node:fs/promises';
import { readBoxes } from './bmff.ts';
import { withFileSource, type ByteSource } from './byte-source.ts';
import { writeAtomically } from './atomic-write.ts';
import type { TagBlock } from './metadata-sources.ts';

export interface MotionPhotoClaim {
  /** Which XMP dialect said so, or 'Samsung' when only the file's structure did (mpvd box, SEFT trailer). */
  dialect: 'MotionPhoto' | 'MicroVideo' | 'Samsung';
  /** Where the XMP says the video starts, counted back from the end of the file. */
  bytesFromEnd: number;
  /** The frame of the clip the still shows, in microseconds (-1 or absent: not stated). */
  presentationTimestampUs: number | null;
}

export interface MotionVideoLocation {
  offset: number;
  length: number;
}

const num = (v: unknown): number | null => {
  const x = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
};

/** Container:Directory entries as {semantic, length}, whatever shape the XMP parser gave them. */
function directoryItems(directory: unknown): { semantic: string; length: number | null }[] {
  const list = Array.isArray(directory) ? directory : directory && typeof directory === 'object' ? [directory] : [];
  return list.map((entry) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const item = (e.Item && typeof e.Item === 'object' ? e.Item : e) as Record<string, unknown>;
    return { semantic: String(item.Semantic ?? ''), length: num(item.Length) };
  });
}

/** What the photo's XMP (by namespace prefix, as metadata-sources.ts gives it) says about an embedded video. */
export function motionPhotoClaim(xmp: Record<string, TagBlock>): MotionPhotoClaim | null {
  const camera = xmp.GCamera ?? {};
  if (num(camera.MotionPhoto) === 1) {
    const items = directoryItems(xmp.Container?.Directory);
    const at = items.findIndex((i) => i.semantic === 'MotionPhoto');
    if (at > 0) {
      const after = items.slice(at);
      if (after.every((i) => i.length !== null && i.length > 0)) {
        const ts = num(camera.MotionPhotoPresentationTimestampUs);
        return { dialect: 'MotionPhoto', bytesFromEnd: after.reduce((sum, i) => sum + i.length!, 0), presentationTimestampUs: ts !== null && ts >= 0 ? ts : null };
      }
    }
  }
  if (num(camera.MicroVideo) === 1) {
    const fromEnd = num(camera.MicroVideoOffset);
    const ts = num(camera.MicroVideoPresentationTimestampUs);
    if (fromEnd !== null && fromEnd > 0) return { dialect: 'MicroVideo', bytesFromEnd: fromEnd, presentationTimestampUs: ts !== null && ts >= 0 ? ts : null };
  }
  return null;
}

const SEF_TRAILER = 'SEFT';
const SEF_DIRECTORY = 'SEFH';
const SEF_MOTION_ENTRY = 'MotionPhoto_Data';
/** A Samsung trailer directory is a few hundred bytes; anything larger is not one. */
const MAX_SEF_DIRECTORY_BYTES = 64 * 1024;

const latin1 = (b: Uint8Array, at: number, n: number) => Buffer.from(b.buffer, b.byteOffset + at, Math.max(0, Math.min(n, b.length - at))).toString('latin1');

/**
 * Where the Samsung trailer's `MotionPhoto_Data` entry says the clip starts (ExifTool's Samsung.pm documents
 * the layout): the file ends with the directory's length and "SEFT"; the directory ("SEFH", version, count,
 * then 12-byte entries: 2 bytes padding, 2 bytes type, 4 bytes distance back from the directory to the
 * entry's data, 4 bytes length, all little-endian); each entry's data starts with 2 bytes padding, 2 bytes
 * type, the name's length and the name, and the clip follows the name.
 */
async function samsungTrailerClip(src: ByteSource): Promise<number | null> {
  if (src.size < 16) return null;
  const tail = await src.read(src.size - 8, 8);
  if (tail.length < 8 || latin1(tail, 4, 4) !== SEF_TRAILER) return null;
  const dirLength = Buffer.from(tail.buffer, tail.byteOffset, 8).readUInt32LE(0);
  const dirAt = src.size - 8 - dirLength;
  if (dirLength < 12 || dirLength > MAX_SEF_DIRECTORY_BYTES || dirAt < 0) return null;
  const dir = Buffer.from(await src.read(dirAt, dirLength));
  if (dir.length < 12 || latin1(dir, 0, 4) !== SEF_DIRECTORY) return null;
  const count = dir.readUInt32LE(8);
  for (let i = 0; i < count && 12 + 12 * (i + 1) <= dir.length; i++) {
    const entry = 12 + 12 * i;
    const dataAt = dirAt - dir.readUInt32LE(entry + 4);
    const length = dir.readUInt32LE(entry + 8);
    if (dataAt < 0 || length < 8 || dataAt + length > dirAt) continue;
    const head = Buffer.from(await src.read(dataAt, 8 + SEF_MOTION_ENTRY.length));
    const nameLength = head.length >= 8 ? head.readUInt32LE(4) : 0;
    if (nameLength === SEF_MOTION_ENTRY.length && latin1(head, 8, nameLength) === SEF_MOTION_ENTRY) return dataAt + 8 + nameLength;
  }
  return null;
}

/** The payload of a Samsung HEIC's top-level `mpvd` box (its clip). */
async function mpvdClip(src: ByteSource): Promise<number | null> {
  const head = await src.read(0, 12);
  if (latin1(head, 4, 4) !== 'ftyp') return null;
  const mpvd = (await readBoxes(src, 0, src.size)).find((b) => b.type === 'mpvd');
  return mpvd ? mpvd.payload : null;
}

/**
 * A motion photo that no XMP announces, told by the file's structure (module comment): the clip's start as a
 * claim, checked against the bytes like an XMP claim (locateMotionVideo). Null when the file has neither.
 */
export function embeddedVideoClaim(file: string): Promise<MotionPhotoClaim | null> {
  return withFileSource(file, async (src) => {
    const start = (await mpvdClip(src)) ?? (await samsungTrailerClip(src));
    return start !== null && start < src.size ? { dialect: 'Samsung', bytesFromEnd: src.size - start, presentationTimestampUs: null } : null;
  });
}

/** Bytes of slack searched around the declared start for the `ftyp` box. */
const SLACK = 4096;
/**
 * The top-level boxes an MP4/QuickTime clip is made of. The clip ends at the first other box: a Samsung
 * `sefd` box after its `mpvd` is well-formed but no part of the video.
 */
const CLIP_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'uuid', 'udta', 'meta', 'pdin', 'moof', 'mfra', 'styp', 'sidx', 'ssix', 'prft', 'emsg', 'meco', 'pnot']);

async function clipAt(src: ByteSource, offset: number): Promise<MotionVideoLocation | null> {
  const boxes = await readBoxes(src, offset, src.size);
  if (boxes[0]?.type !== 'ftyp') return null;
  let end = offset;
  let moov = false;
  for (const b of boxes) {
    if (!CLIP_BOXES.has(b.type) || b.truncated || b.start !== end) break;
    if (b.type === 'moov') moov = true;
    end = b.end;
  }
  return moov ? { offset, length: end - offset } : null;
}

/** Where the embedded video really is, or null when the bytes do not hold the video the XMP claims. */
export function locateMotionVideo(file: string, claim: MotionPhotoClaim): Promise<MotionVideoLocation | null> {
  return withFileSource(file, async (src) => {
    const declared = src.size - claim.bytesFromEnd;
    if (!(declared > 0 && declared < src.size)) return null;
    const from = Math.max(0, declared - SLACK);
    const window = await src.read(from, Math.min(src.size, declared + SLACK + 8) - from);
    const candidates: number[] = [];
    for (let i = window.indexOf(0x66); i >= 0; i = window.indexOf(0x66, i + 1)) {
      if (i >= 4 && window[i + 1] === 0x74 && window[i + 2] === 0x79 && window[i + 3] === 0x70) candidates.push(from + i - 4); // "ftyp"
    }
    candidates.sort((a, b) => Math.abs(a - declared) - Math.abs(b - declared));
    for (const offset of candidates) {
      const clip = await clipAt(src, offset);
      if (clip) return clip;
    }
    return null;
  });
}

/** Copy the embedded video out to `dest` (atomically). */
export async function extractMotionVideo(file: string, where: MotionVideoLocation, dest: string): Promise<void> {
  await writeAtomically(dest, async (tmp) => {
    const src = await fs.open(file, 'r');
    const out = await fs.open(tmp, 'w');
    try {
      const chunk = Buffer.alloc(1024 * 1024);
      for (let done = 0; done < where.length; ) {
        const { bytesRead } = await src.read(chunk, 0, Math.min(chunk.length, where.length - done), where.offset + done);
        if (bytesRead === 0) throw new Error('the file ended before its embedded video');
        await out.write(chunk, 0, bytesRead);
        done += bytesRead;
      }
    } finally {
      await src.close();
      await out.close();
    }
  });
}

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
 * The XMP is a claim; the bytes must agree: the video must start with an ISO-BMFF `ftyp` box (a few bytes
 * of slack are searched, writers disagree on padding) and hold a `moov` box. The clip is the run of
 * well-formed boxes from there, so a trailer after it (Samsung's SEFT) is not part of it.
 */
import fs from 'node:fs/promises';
import { readBoxes } from './bmff.ts';
import { withFileSource, type ByteSource } from './byte-source.ts';
import { writeAtomically } from './atomic-write.ts';
import type { TagBlock } from './metadata-sources.ts';

export interface MotionPhotoClaim {
  dialect: 'MotionPhoto' | 'MicroVideo';
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

/** Bytes of slack searched around the declared start for the `ftyp` box. */
const SLACK = 4096;
const BOX_TYPE = /^[\x20-\x7e]{4}$/;

async function clipAt(src: ByteSource, offset: number): Promise<MotionVideoLocation | null> {
  const boxes = await readBoxes(src, offset, src.size);
  if (boxes[0]?.type !== 'ftyp') return null;
  let end = offset;
  let moov = false;
  for (const b of boxes) {
    if (!BOX_TYPE.test(b.type) || b.truncated || b.start !== end) break;
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

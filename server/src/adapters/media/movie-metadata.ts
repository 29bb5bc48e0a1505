/**
 * A movie's own metadata packets: its boxes (bmff-movie.ts) and, from the XMP packet it carries, the capture
 * times that state their zone, best first. video-probe.ts merges them with ffprobe's view, or uses them alone
 * when ffprobe is not installed.
 *
 * XMP times, best first, as the photo path ranks them: exif:DateTimeOriginal (when it was taken),
 * photoshop:DateCreated, then xmp:CreateDate (when the file was made: for a camera the same moment, for an
 * export the export). Only values with a zone are candidates: a zone-less XMP time says less than the
 * container's UTC instant.
 */
import { readMovieBoxes, type MovieBoxes } from './bmff-movie.ts';
import { openFileSource } from './byte-source.ts';
import { parseXmpPacket } from './metadata-sources.ts';

export interface MovieMetadata {
  boxes: MovieBoxes;
  /** Zoned capture-time strings from the XMP packet, best first. */
  xmpTimes: string[];
}

/** Top-level box types a movie may start with (QuickTime files older than ftyp start with these). */
const FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot', 'uuid']);

const XMP_TIMES: Array<[string, string]> = [
  ['exif', 'DateTimeOriginal'],
  ['photoshop', 'DateCreated'],
  ['xmp', 'CreateDate'],
];

/** The movie's boxes and XMP times; null when the file is not an ISO-BMFF/QuickTime movie. Never throws for content. */
export async function readMovieMetadata(file: string): Promise<MovieMetadata | null> {
  let src: Awaited<ReturnType<typeof openFileSource>>;
  try {
    src = await openFileSource(file);
  } catch {
    return null; // unreadable path: ffprobe (or the pipeline) reports it
  }
  try {
    const head = await src.read(4, 4);
    if (head.length < 4 || !FIRST_BOXES.has(Buffer.from(head).toString('latin1'))) return null;
    const boxes = await readMovieBoxes(src);
    const xmpTimes: string[] = [];
    if (boxes.xmp) {
      const blocks = await parseXmpPacket(boxes.xmp, []);
      for (const [ns, name] of XMP_TIMES) {
        const v = blocks[ns]?.[name];
        if (typeof v === 'string') xmpTimes.push(v);
      }
    }
    return { boxes, xmpTimes };
  } finally {
    await src.close();
  }
}

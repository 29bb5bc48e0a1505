/**
 * Telling damaged input from a failing tool, with one stable sentence per kind of damage.
 *
 * Why: a damaged file (a JPEG cut short by an interrupted copy, an MP4 whose index never got written) fails
 * the same way on every try, so it must end `corrupt` at once, and its reason must read the same every time
 * (tests, support and people compare them). Only failures of the environment — a tool missing, killed,
 * timed out, or an I/O error — are worth retrying.
 *
 * Rules:
 *   - Photos: any decode failure of a file that was read whole is damage (the decoders are in-process and
 *     deterministic), except a picture over the pixel limit, which has its own sentence.
 *   - ISO-BMFF files (MP4, MOV, 3GP, HEIC, CR3): checked before any tool runs. A top-level box that runs
 *     past the end of the file means the file was cut short; a movie without a `moov` box has no index and
 *     cannot be played.
 *   - ffmpeg/ffprobe: a run that ended normally with an error exit and one of FFmpeg's fixed messages for
 *     invalid input ("Invalid data found when processing input", "moov atom not found", ...) is damage;
 *     anything else (not started, killed, timed out, I/O error) is a tool failure and is retried.
 */
import type { DetectedType } from './detect.ts';
import { readBoxes } from './bmff.ts';
import { withFileSource } from './byte-source.ts';
import { MediaDamagedError, MediaToolError } from './errors.ts';

/** The name people know the format by: "JPEG", "PNG", "HEIC", "MP4", "MOV", "NEF", ... */
export function formatLabel(type: Pick<DetectedType, 'ext' | 'mime'> | null | undefined): string {
  if (!type) return 'media';
  const ext = type.ext.toLowerCase();
  if (ext === 'jpg' || ext === 'jpeg') return 'JPEG';
  if (ext === 'tif') return 'TIFF';
  return ext.toUpperCase();
}

/** The stable sentence for a file of this kind that is damaged or cut short. */
export function damagedReason(type: Pick<DetectedType, 'ext' | 'mime'> | null | undefined): string {
  return `The ${formatLabel(type)} file is damaged or cut short; it cannot be decoded.`;
}

/**
 * A RAW of which nothing can be read, neither a preview nor metadata: cut short before its directories, or
 * a container Hearth does not parse (Canon CRW). The sentence says both, since the bytes cannot tell them apart.
 */
export function unreadableRawReason(type: Pick<DetectedType, 'ext' | 'mime'> | null | undefined): string {
  return `Neither the preview nor the metadata of this ${formatLabel(type)} file can be read: it is damaged or cut short, or a kind of RAW Hearth does not read.`;
}

export const TOO_LARGE_REASON = 'The image is larger than Hearth decodes (more than 200 megapixels).';

/** A photo decode failure (thumbnails.ts, heic.ts, raw-preview.ts) as a MediaDamagedError. */
export function photoDecodeFailure(type: DetectedType | null | undefined, error: unknown): MediaDamagedError {
  const detail = error instanceof Error ? error.message : String(error);
  if (/pixel limit|too large|exceeds/i.test(detail)) return new MediaDamagedError(TOO_LARGE_REASON, detail, { cause: error });
  return new MediaDamagedError(damagedReason(type), detail, { cause: error });
}

/** FFmpeg's fixed messages for input it cannot read (libavformat/libavcodec error strings). */
const FFMPEG_INVALID_INPUT = [
  /Invalid data found when processing input/i,
  /moov atom not found/i,
  /error reading header/i,
  /could not find codec parameters/i,
  /does not contain any stream/i,
  /Output file is empty, nothing was encoded/i,
  /Invalid NAL unit size/i,
  /partial file/i,
  /End of file/i,
  /no frame at/i,
];

/** Is this tool failure the input's fault (damaged file) rather than the tool's or the machine's? */
export function isDamagedInput(err: MediaToolError): boolean {
  // ffmpeg ended well but found no picture to take (video-poster.ts): the stream has no decodable frame.
  if (/^no frame at/.test(err.detail)) return true;
  if (err.exitCode === null || err.exitCode === 0) return false; // not started, killed, timed out
  if (/Input\/output error|No space left|Cannot allocate memory|Resource temporarily unavailable/i.test(err.stderrTail)) return false;
  const words = `${err.detail} ${err.stderrTail}`;
  return FFMPEG_INVALID_INPUT.some((re) => re.test(words));
}

/** Rethrows a tool failure caused by damaged input as MediaDamagedError; other errors pass unchanged. */
export function asDamage(type: DetectedType | null | undefined, error: unknown): unknown {
  if (error instanceof MediaToolError && isDamagedInput(error)) return new MediaDamagedError(damagedReason(type), error.message, { cause: error });
  return error;
}

const BMFF_MOVIES = new Set(['mp4', 'mov', 'm4v', '3gp', '3g2']);

/**
 * Structural check of an ISO-BMFF file before any tool reads it. Throws MediaDamagedError when the movie's
 * data or index (or any box before the index) runs past the end of the file, or when a movie has no `moov`
 * box. Bytes after a complete movie that do not form a box (padding, a maker's trailer) are left alone:
 * players ignore them too.
 */
export async function assertIntactContainer(file: string, type: DetectedType | null | undefined): Promise<void> {
  if (!type) return;
  const movie = type.kind === 'video' && BMFF_MOVIES.has(type.ext.toLowerCase());
  const heif = type.mime === 'image/heic' || type.mime === 'image/heif' || type.mime === 'image/avif';
  if (!movie && !heif) return;
  const problem = await withFileSource(file, async (src) => {
    const top = await readBoxes(src, 0, src.size);
    if (top[0]?.type !== 'ftyp' && !(movie && top.length > 0)) return 'no ISO-BMFF header';
    let index = false;
    for (const box of top) {
      // Bytes that are not a box (a maker's trailer, such as Samsung's SEFT after a complete movie): the
      // movie ended before them.
      if (!/^[\x20-\x7e]{4}$/.test(box.type)) break;
      if (box.truncated) {
        // The movie's own data or index cut short, or anything before the index: the file was cut short.
        if (!index || box.type === 'moov' || box.type === 'mdat' || box.type === 'meta') {
          return `the '${box.type}' box at ${box.start} runs past the end of the file (${src.size} bytes)`;
        }
        break; // a trailer after a complete movie that happens to read like a box
      }
      if (box.type === 'moov' || (heif && box.type === 'meta')) index = true;
    }
    if (movie && !index) return "no 'moov' box (the movie's index is missing)";
    return null;
  });
  if (problem) throw new MediaDamagedError(damagedReason(type), problem);
}

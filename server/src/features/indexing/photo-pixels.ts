/**
 * The decoded pixels of the photos being indexed, shared by the indexers of one photo: its `face` and `ocr` jobs
 * are queued together (IndexingService.afterAssetReady) and the `ml` queue runs them side by side, so both read
 * one decode instead of one each. Faces read the photo at 800 px (the medium thumbnail's size) and so does text
 * detection (ocr-indexer.ts), once per photo; the OCR crops' larger source is decoded apart, and only when a
 * line of text is thinner than the recogniser's 48-px input at 800 px (features/ocr/recognise.ts).
 *
 * Keyed by file, size, modification time and the size decoded to: a file replaced on disk is decoded again. A
 * decode in progress is shared too (the second indexer waits for the first one's). Bounded in bytes (least
 * recently used first out) and emptied when indexing has been idle for a while, so the pixels of a finished
 * import do not stay in memory. A failed decode is not kept: it rejects with the decoder's error, which each
 * indexer turns into its own input error.
 */
import fs from 'node:fs';
import { withOpenedImage } from '../../adapters/media/image-source.ts';
import { rgbInside, type RgbImage } from '../../adapters/media/rgb-pixels.ts';

/** What every indexer of a photo can read: the medium thumbnail's size. */
export const INDEX_PIXELS_MAX_SIDE = 800;

/** 16 MB: eight 800-px photos at most (1.9 MB each), more than the `ml` queue's jobs in flight. */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
/** Emptied this long after the last read. */
const IDLE_MS = 30_000;

interface Entry {
  pixels: Promise<RgbImage>;
  bytes: number;
}

export class PhotoPixels {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private idle: NodeJS.Timeout | null = null;
  /** Decodes run, by the size decoded to (kept ones and `once`): what the sharing saves shows here. */
  readonly decodes = new Map<number, number>();

  constructor(
    readonly maxBytes = DEFAULT_MAX_BYTES,
    private readonly decode: (file: string, maxSide: number) => Promise<RgbImage> = async (file, maxSide) => withOpenedImage(file, {}, (o) => rgbInside(o.pipeline, maxSide)),
  ) {}

  /** Upright RGB pixels of `file` within `maxSide` × `maxSide` (never enlarged). */
  async get(file: string, maxSide: number = INDEX_PIXELS_MAX_SIDE): Promise<RgbImage> {
    const st = await fs.promises.stat(file);
    const key = `${maxSide}\0${st.size}\0${st.mtimeMs}\0${file}`;
    this.touch();
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.pixels;
    }
    const entry: Entry = { pixels: this.run(file, maxSide), bytes: 0 };
    this.entries.set(key, entry);
    entry.pixels.then(
      (img) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = img.data.byteLength;
        this.bytes += entry.bytes;
        this.trim();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.pixels;
  }

  /** Pixels decoded for one reader and not kept (the OCR crops' large source). */
  once(file: string, maxSide: number): Promise<RgbImage> {
    return this.run(file, maxSide);
  }

  /** Bytes of pixels held now. */
  get heldBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
  }

  private run(file: string, maxSide: number): Promise<RgbImage> {
    this.decodes.set(maxSide, (this.decodes.get(maxSide) ?? 0) + 1);
    return this.decode(file, maxSide);
  }

  private trim(): void {
    for (const [key, e] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      this.bytes -= e.bytes;
    }
  }

  private touch(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.clear(), IDLE_MS);
    this.idle.unref();
  }
}

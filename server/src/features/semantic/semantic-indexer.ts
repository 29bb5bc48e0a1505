/**
 * The `semantic` (photos) and `video_semantic` (videos) indexers (features/indexing: an `indexing.index-asset`
 * job calls `index`): CLIP image vectors into `semantic_vectors` (semantic.store.ts), then the zero-shot tags
 * (zero-shot/), with no further model call.
 *
 * What a photo's vector is made from: the medium (800 px) thumbnail when it exists (what the reference embeds; it
 * is made on a photo's first view, so many photos have none yet), else the original decoded as the thumbnails
 * decode it (HEIC, RAW previews, EXIF orientation, the decompression-bomb limit), shrunk to the medium size in
 * memory. A medium thumbnail that cannot be decoded (a damaged cache file) falls back to the original. One row,
 * frame_ts_ms -1. A video: the frames of video-frames.ts, one row each with its time.
 *
 * Idempotent and resumable: each asset's vectors are replaced in one transaction, so a job cut off by a kill runs
 * again from the start and leaves one set; the index entry (asset_index_entries) is written by the indexing
 * service only after `index` returned. The model id stored is the image tower's (`ClipEncoder.modelVersion`).
 *
 * Failures: an image or video that cannot be decoded fails its own job at once (PermanentError,
 * `semantic_unreadable_media`: trying again reads the same bytes); a model that went missing makes the job wait
 * (as OCR's do); a model that throws fails that attempt, and the pool goes on.
 */
import fs from 'node:fs';
import sharp from 'sharp';
import { ModelUnavailableError, type ImageSource } from '../../adapters/ml/index.ts';
import { MediaDecodeError, MediaToolError, probeVideo } from '../../adapters/media/index.ts';
import { withOpenedImage } from '../../adapters/media/image-source.ts';
import { failpoint } from '../../platform/failpoints.ts';
import { PermanentError, SnoozeError } from '../../platform/jobs/registry.ts';
import type { Indexer, IndexTarget } from '../indexing/index.ts';
import { PHOTO_FRAME, type FrameVector, type SemanticStore } from './semantic.store.ts';
import { sampleFrames, type VideoSampling } from './video-frames.ts';
import type { ZeroShotClassifier } from './zero-shot/zero-shot.ts';
import type { ZeroShotTagStore } from './zero-shot/zeroshot-tags.store.ts';

/** How long a job waits when the CLIP model went missing after the start (the indexing service's own wait). */
const MODEL_GONE_WAIT_MS = 3_600_000;
/** The size an original is shrunk to before CLIP's own preprocessing (the medium thumbnail's long side). */
const MEDIUM_EDGE = 800;

export const UNREADABLE_CODE = 'semantic_unreadable_media';

export interface ImageEncoder {
  embedImages(images: ImageSource[]): Promise<Float32Array[]>;
  readonly modelVersion: string;
}

export interface SemanticIndexerDeps {
  encoder: ImageEncoder;
  store: SemanticStore;
  tags: ZeroShotTagStore;
  /** Null when the text tower is not installed: vectors are made, tags are not. */
  zeroShot: ZeroShotClassifier | null;
  mediumThumbnail(assetId: string): string;
  webVideo(assetId: string): string;
  /** The `ml` settings' sampling, read at each video (a change applies to the next one). */
  sampling(): VideoSampling;
}

/** An original photo, upright and shrunk to the medium size, as PNG bytes in memory. */
export async function decodeOriginal(file: string): Promise<Buffer> {
  return withOpenedImage(file, {}, ({ pipeline }) =>
    pipeline.resize({ width: MEDIUM_EDGE, height: MEDIUM_EDGE, fit: 'inside', withoutEnlargement: true }).png({ compressionLevel: 1 }).toBuffer(),
  );
}

/** Whether sharp can decode the whole file (a medium thumbnail is a small WebP: cheap to check). */
async function decodable(file: string): Promise<boolean> {
  try {
    await sharp(file, { failOn: 'truncated' }).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}

function unreadable(e: unknown): never {
  throw new PermanentError(`${UNREADABLE_CODE}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

export class SemanticIndexer implements Indexer {
  constructor(
    readonly task: 'semantic' | 'video_semantic',
    private readonly deps: SemanticIndexerDeps,
  ) {}

  get modelId(): string {
    return this.deps.encoder.modelVersion;
  }

  async index(target: IndexTarget, signal: AbortSignal): Promise<void> {
    const want = this.task === 'semantic' ? 'PHOTO' : 'VIDEO';
    if (target.type !== want) return; // the task applies to one type (index-tasks.ts)
    try {
      const frames = this.task === 'semantic' ? await this.photoFrames(target) : await this.videoFrames(target, signal);
      signal.throwIfAborted();
      if (!this.deps.store.replace(target.asset_id, this.modelId, frames)) return; // deleted meanwhile
      // Crash tests: vectors committed, tags and the index entry not yet (the job runs again after a restart).
      failpoint('semantic.stored');
      if (this.deps.zeroShot) this.deps.tags.replace(target.asset_id, await this.deps.zeroShot.classify(frames));
    } catch (e) {
      if (e instanceof ModelUnavailableError) throw new SnoozeError(MODEL_GONE_WAIT_MS, `Waiting: ${e.message}.`);
      throw e;
    }
  }

  /** Wipes every vector and every zeroshot tag (semantic reset; both tasks share them). */
  reset(): void {
    this.deps.store.reset();
    this.deps.tags.wipe();
  }

  private async photoFrames(target: IndexTarget): Promise<FrameVector[]> {
    const medium = this.deps.mediumThumbnail(target.asset_id);
    let source: ImageSource;
    if (fs.existsSync(medium) && (await decodable(medium))) source = medium;
    else source = await decodeOriginal(target.file).catch(unreadable);
    const [vector] = await this.deps.encoder.embedImages([source]);
    return [{ frameTsMs: PHOTO_FRAME, vector: vector! }];
  }

  private async videoFrames(target: IndexTarget, signal: AbortSignal): Promise<FrameVector[]> {
    const web = this.deps.webVideo(target.asset_id);
    const file = fs.existsSync(web) ? web : target.file;
    let duration: number | null;
    try {
      duration = (await probeVideo(file, { signal })).info.duration;
    } catch (e) {
      if (e instanceof MediaToolError || e instanceof MediaDecodeError) unreadable(e);
      throw e;
    }
    const { frames } = await sampleFrames(file, duration ?? 0, this.deps.sampling(), signal).catch((e: unknown) => {
      if (e instanceof MediaToolError && !signal.aborted) unreadable(e);
      throw e;
    });
    if (!frames.length) unreadable(new Error('no frame could be cut from the video'));
    const vectors = await this.deps.encoder.embedImages(frames.map((f) => f.png));
    return frames.map((f, i) => ({ frameTsMs: f.frameTsMs, vector: vectors[i]! }));
  }
}

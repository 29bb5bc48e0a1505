/**
 * The `face` indexer (features/indexing: an `indexing.index-asset` job for task `face` calls `index`): finds a
 * photo's faces with YuNet, aligns and embeds each with MobileFaceNet on the ML runtime's worker pool, stores
 * them (faces.store.ts) and places them among the owner's people (incremental clustering).
 *
 * What it reads: the medium (800 px) thumbnail when the photo has one, as the reference does; otherwise the
 * original decoded to 800 px (the same pixels), through the pixels shared with the photo's text detection
 * (features/indexing/photo-pixels.ts), so the two indexers of a photo decode it once. Idempotent per model version: a photo this model version has
 * read is not read again (its faces, and what members decided about them, stay as they are); a new version
 * reads it again and keeps the decisions on faces found again.
 */
import fs from 'node:fs';
import { ModelUnavailableError, type MlRuntime } from '../../adapters/ml/index.ts';
import { PermanentError, SnoozeError } from '../../platform/jobs/registry.ts';
import { PhotoPixels, type Indexer, type IndexTarget } from '../indexing/index.ts';
import type { FacesStore } from './faces.store.ts';
import { FaceInputError } from './image-input.ts';
import { FACE_MODEL_ID, FACE_PARAMS } from './params.ts';
import { analyseFaces, poolInfer } from './pipeline.ts';
import type { FaceInfer } from './types.ts';

const MODELS_GONE_WAIT_MS = 3_600_000;

export class FaceIndexer implements Indexer {
  readonly modelId = FACE_MODEL_ID;

  constructor(
    private readonly infer: FaceInfer,
    private readonly store: FacesStore,
    private readonly mediumThumbnail: (assetId: string) => string,
    private readonly pixels: PhotoPixels = new PhotoPixels(),
  ) {}

  async index(target: IndexTarget, signal: AbortSignal): Promise<void> {
    if (target.type !== 'PHOTO') return;
    if (this.store.resultModel(target.asset_id) === this.modelId) return;
    const medium = this.mediumThumbnail(target.asset_id);
    let analysis;
    try {
      const file = fs.existsSync(medium) ? medium : target.file;
      const img = await this.pixels.get(file, FACE_PARAMS.source.maxSide).catch((e: unknown) => {
        throw new FaceInputError(e instanceof Error ? e.message : String(e), { cause: e });
      });
      analysis = await analyseFaces(img, this.infer);
    } catch (e) {
      if (e instanceof FaceInputError) throw new PermanentError(`${e.code}: ${e.message}`, { cause: e });
      if (e instanceof ModelUnavailableError) throw new SnoozeError(MODELS_GONE_WAIT_MS, `Waiting: ${e.message}.`);
      throw e;
    }
    // The owner's faces read ahead when they are not kept already (the first photo of an import), and the components
    // the new faces will join searched ahead: outside the write, a slice per turn.
    if (analysis.faces.length) await this.store.warmFor(target.asset_id, analysis.faces.map((f) => f.embedding));
    signal.throwIfAborted();
    this.store.replace(target.asset_id, analysis, this.modelId);
  }

  reset(): void {
    this.store.reset();
  }
}

/** The indexer when both face models are installed and verified; null otherwise (the jobs then wait). */
export async function createFaceIndexer(
  ml: MlRuntime,
  store: FacesStore,
  mediumThumbnail: (assetId: string) => string,
  pixels?: PhotoPixels,
): Promise<FaceIndexer | null> {
  if (!(await ml.capabilityReady('face_recognition'))) return null;
  return new FaceIndexer(poolInfer(ml), store, mediumThumbnail, pixels);
}

/**
 * The medium (800 px) and large (1920 px) thumbnails, made on their first request and kept.
 *
 * Why not at ingest: the timeline's grid asks for the small size only, so that is what ingest makes (with
 * the pHash); the large one is shown when a person opens the photo and the medium one as an album cover.
 * Making both for every photo at ingest more than doubled its CPU time (scripts/bench/ingest.ts: the 1920 px
 * WebP encode alone costs more than decoding the photo) for sizes most photos of a large library are never
 * shown in, and their files are most of the derivatives' disk space. Made once on first view, they are
 * files like the small one from then on (kept across restarts; rebuilt with the rest by reprocessAsset).
 *
 * What a first view costs: one decode of the original (of the poster for a video) and one encode, about a
 * tenth of a second for a 12 MP JPEG on a small machine, a second for a HEIC (decoded in wasm). At most
 * `CONCURRENT` are made at once (an album page asks for dozens of covers together); the rest wait their turn,
 * and requests for a size being made wait for that same work.
 *
 * Decisions: a lazy size that cannot be made (the original is gone, its repository offline, or the file
 * damaged since ingest) falls back to the small thumbnail, which a person would rather see than nothing; the
 * asset itself is not failed by a thumbnail request (its next processing tells). A size made while the file
 * was replaced or reprocessed is not kept: the pipeline's new run removes the old sizes when it starts, and a
 * result whose asset is no longer ready with the same content is deleted at once.
 */
import fs from 'node:fs';
import { generateThumbnails } from '../../../adapters/media/thumbnails.ts';
import { forSystem } from '../../../platform/access/index.ts';
import type { RepositoriesService } from '../../repositories/index.ts';
import type { AssetsStore, AssetRow } from '../assets.store.ts';
import type { DerivativePaths, ThumbSize } from '../derivatives.ts';
import { resolveInRepository } from '../ingest/ingest.service.ts';

/** The sizes ingest leaves to the first request. */
export const LAZY_SIZES: readonly ThumbSize[] = ['medium', 'large'];

/** Thumbnails made on request at the same time (as many as the media queue's workers on a small machine). */
const CONCURRENT = 2;

export class LazyThumbnails {
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly store: Pick<AssetsStore, 'byId'>,
    private readonly repositories: Pick<RepositoriesService, 'byId'>,
    private readonly derivatives: DerivativePaths,
  ) {}

  /** Whether `size` of this asset is made on request (it is ready and its small size exists). */
  available(asset: AssetRow, size: ThumbSize): boolean {
    return LAZY_SIZES.includes(size) && asset.state === 'ready' && fs.existsSync(this.derivatives.thumbnail(asset.asset_id, 'small'));
  }

  /** Makes `size` of the asset if it is missing; true when its file exists afterwards. */
  async ensure(asset: AssetRow, size: ThumbSize): Promise<boolean> {
    const target = this.derivatives.thumbnail(asset.asset_id, size);
    if (fs.existsSync(target)) return true;
    if (!this.available(asset, size)) return false;
    let work = this.inFlight.get(target);
    if (!work) {
      work = this.make(asset, size, target).finally(() => this.inFlight.delete(target));
      this.inFlight.set(target, work);
    }
    return work;
  }

  private async make(asset: AssetRow, size: ThumbSize, target: string): Promise<boolean> {
    const source = this.sourceOf(asset);
    if (!source || !fs.existsSync(source)) return false;
    await this.turn();
    try {
      await generateThumbnails(source, { [size]: target });
    } catch {
      return false; // damaged or unreadable since ingest: the caller falls back to the small size
    } finally {
      this.release();
    }
    // Replaced or reprocessed meanwhile: this result is of the old content.
    const now = this.store.byId(forSystem('asset', asset.asset_id)); // the same asset the caller was allowed, read again
    if (!now || now.state !== 'ready' || now.hash !== asset.hash || now.file_size !== asset.file_size) {
      fs.rmSync(target, { force: true });
      return false;
    }
    return true;
  }

  /** What the thumbnails of the asset are made from: the photo itself, or a video's poster frame. */
  private sourceOf(asset: AssetRow): string | null {
    if (asset.type === 'VIDEO') return this.derivatives.poster(asset.asset_id);
    if (asset.type !== 'PHOTO') return null;
    const repo = this.repositories.byId(asset.repository_id);
    if (!repo) return null;
    try {
      return resolveInRepository(repo.path, asset.storage_path);
    } catch {
      return null;
    }
  }

  private turn(): Promise<void> {
    if (this.running < CONCURRENT) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

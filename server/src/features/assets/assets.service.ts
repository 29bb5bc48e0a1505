/**
 * Reading assets and their files. Every read checks ownership; another user's asset answers 404, so
 * its existence does not leak. Administrators get no exception: photos are private to their owner.
 */
import fs from 'node:fs';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { NotFound } from '../../platform/http/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { RepositoriesService } from '../repositories/repositories.service.ts';
import { processAsset } from './assets.jobs.ts';
import { AssetsStore, type AssetRow } from './assets.store.ts';
import type { Asset } from './assets.view.ts';
import { toAsset } from './assets.view.ts';
import type { DerivativePaths, ThumbSize } from './derivatives.ts';
import { resolveInRepository } from './ingest.service.ts';

export interface FileRef {
  path: string;
  contentType: string;
  etag: string;
  name: string;
}

export class AssetsService {
  private readonly store: AssetsStore;

  constructor(
    private readonly db: Db,
    private readonly repositories: Pick<RepositoriesService, 'byId'>,
    private readonly derivatives: DerivativePaths,
    private readonly jobs: JobQueue,
  ) {
    this.store = new AssetsStore(db);
  }

  /** The caller's asset, or 404. */
  own(actor: Actor, assetId: string): AssetRow {
    const row = this.store.byId(assetId);
    if (!row || row.owner_id !== actor.userId) throw new NotFound('No such asset.', 'asset_not_found');
    return row;
  }

  detail(actor: Actor, assetId: string, include: { thumbnails: boolean; tags: boolean; albums: boolean; ocr: boolean; faces: boolean }) {
    const a = this.own(actor, assetId);
    const base: Asset & Record<string, unknown> = toAsset(a);
    if (include.thumbnails) {
      base.thumbnails = (['small', 'medium', 'large'] as ThumbSize[])
        .filter((s) => fs.existsSync(this.derivatives.thumbnail(a.asset_id, s)))
        .map((s) => ({ thumbnail_id: `${a.asset_id}:${s}`, size: s, mime_type: 'image/webp', storage_path: `/api/v1/assets/${a.asset_id}/thumbnail?size=${s}` }));
    }
    if (include.tags) base.tags = [];
    if (include.albums) base.albums = [];
    if (include.ocr) base.ocr_result = null;
    if (include.faces) base.face_result = null;
    return base;
  }

  exif(actor: Actor, assetId: string) {
    const a = this.own(actor, assetId);
    return { asset_id: a.asset_id, exif_raw: a.exif_raw ? (JSON.parse(a.exif_raw) as Record<string, unknown>) : {} };
  }

  thumbnail(actor: Actor, assetId: string, size: ThumbSize): FileRef {
    const a = this.own(actor, assetId);
    const p = this.derivatives.thumbnail(a.asset_id, size);
    if (!fs.existsSync(p)) {
      throw new NotFound(a.state === 'failed' ? `No thumbnail: ${a.last_error ?? 'processing failed'}` : 'The thumbnail is not ready yet.', 'thumbnail_not_ready');
    }
    return { path: p, contentType: 'image/webp', etag: `${a.hash}-${size}-${a.updated_at}`, name: `${a.asset_id}-${size}.webp` };
  }

  original(actor: Actor, assetId: string): FileRef {
    const a = this.own(actor, assetId);
    const repo = this.repositories.byId(a.repository_id);
    if (!repo) throw new NotFound('The repository of this asset is gone.', 'repository_not_found');
    return { path: resolveInRepository(repo.path, a.storage_path), contentType: a.mime_type, etag: `${a.hash}`, name: a.original_filename };
  }

  /** The browser-playable copy: the web transcode when one was needed, else the original. */
  webMedia(actor: Actor, assetId: string, kind: 'VIDEO' | 'AUDIO'): FileRef {
    const a = this.own(actor, assetId);
    if (a.type !== kind) throw new NotFound(`This asset is not ${kind === 'VIDEO' ? 'a video' : 'audio'}.`, 'wrong_asset_type');
    if (a.state !== 'ready') throw new NotFound('The playable copy is not ready yet.', 'web_copy_not_ready');
    const web = kind === 'VIDEO' ? this.derivatives.webVideo(a.asset_id) : this.derivatives.webAudio(a.asset_id);
    if (fs.existsSync(web)) return { path: web, contentType: kind === 'VIDEO' ? 'video/mp4' : 'audio/mpeg', etag: `${a.hash}-web`, name: a.original_filename };
    return this.original(actor, assetId);
  }

  /** Queues the pipeline again. Every task name runs the whole pipeline, which is idempotent. */
  reprocess(actor: Actor, assetId: string, tasks: string[]) {
    const a = this.own(actor, assetId);
    const now = Date.now();
    const job = this.db
      .transaction(() => {
        this.store.update(a.asset_id, { state: 'pending', last_error: null }, now);
        return this.jobs.enqueue(processAsset, { asset_id: a.asset_id, receipt_id: null }, { uniqueKey: `process:${a.asset_id}`, ownerId: actor.userId });
      })
      .immediate();
    return {
      asset_id: a.asset_id,
      receipt_id: String(job.job.id),
      status: 'queued' as const,
      message: job.inserted ? `Queued ${tasks.length ? tasks.join(', ') : 'all tasks'}.` : 'Already queued.',
    };
  }
}

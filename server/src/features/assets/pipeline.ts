/**
 * The media pipeline for one asset (the `assets.process-asset` job):
 *   photo: metadata (exifr + own HEIF/CR3 parsing) → thumbnails small/medium/large from one decode,
 *          with the perceptual hash from the same decode (HEIC via wasm, RAW via its embedded preview)
 *   video: ffprobe metadata → poster frame → thumbnails + pHash from the poster → web MP4 when the
 *          original will not play in a browser
 *   audio: ffprobe metadata → web MP3 when needed
 * then the media item (RAW+JPEG pair, live photo, single). A corrupt or unsupported file ends in the
 * `failed` state with the reason at once; a tool failure is retried, then fails visibly.
 */
import fs from 'node:fs';
import { detect } from '../../adapters/media/detect.ts';
import { MediaDecodeError, MediaToolMissingError } from '../../adapters/media/errors.ts';
import { extractPhotoMetadata } from '../../adapters/media/photo-metadata.ts';
import { generateThumbnails } from '../../adapters/media/thumbnails.ts';
import { needsWebVideo, posterFrame, probeVideo, transcodeWebVideo } from '../../adapters/media/video.ts';
import { needsWebAudio, probeAudio, transcodeWebAudio } from '../../adapters/media/audio.ts';
import type { Db } from '../../platform/db/connection.ts';
import { failpoint } from '../../platform/failpoints.ts';
import { PermanentError, type JobContext } from '../../platform/jobs/registry.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RepositoriesService } from '../repositories/repositories.service.ts';
import { AssetsStore, type AssetRow } from './assets.store.ts';
import type { DerivativePaths } from './derivatives.ts';
import { resolveInRepository } from './ingest.service.ts';
import { linkMediaItem } from './media-items.ts';
import { afterAssetReady } from '../stacks/stacks.service.ts';
import { STATUS } from './status-codes.ts';
import { keepPersonEdits } from './asset-updates.ts';

type Fields = Partial<Omit<AssetRow, 'asset_id' | 'created_at'>>;

const isoToMs = (iso: string | null | undefined) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : null;
};

export class AssetPipeline {
  private readonly store: AssetsStore;

  constructor(
    private readonly db: Db,
    private readonly repositories: Pick<RepositoriesService, 'byId'>,
    private readonly derivatives: DerivativePaths,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new AssetsStore(db);
  }

  async process(assetId: string, receiptId: string | null, ctx: Pick<JobContext, 'attempt' | 'signal' | 'progress' | 'job'>): Promise<{ state: string }> {
    const asset = this.store.byId(assetId);
    if (!asset) throw new PermanentError(`asset ${assetId} no longer exists`);
    const repo = this.repositories.byId(asset.repository_id);
    if (!repo) throw new PermanentError(`repository of asset ${assetId} no longer exists`);
    const file = resolveInRepository(repo.path, asset.storage_path);
    this.store.update(assetId, { state: 'processing' }, this.now());
    failpoint('asset.process');

    try {
      if (!fs.existsSync(file)) throw new FailNow(STATUS.failedMissing, 'The file disappeared before it could be processed.');
      const type = await detect(file);
      if (!type) throw new FailNow(STATUS.failedCorrupt, 'Not a photo, video or audio file Hearth can read.');
      fs.mkdirSync(this.derivatives.dir(assetId), { recursive: true });
      const fields: Fields = {};
      const done: number[] = [STATUS.indexed];
      if (asset.type === 'PHOTO') await this.photo(asset, file, type, fields, done, ctx);
      else if (asset.type === 'VIDEO') await this.video(asset, file, fields, done, ctx);
      else await this.audio(asset, file, fields, done, ctx);

      const now = this.now();
      const mediaItemId = this.db.transaction(() => {
        // What a person corrected stays as they left it; the rest is what the file says now.
        if (typeof fields.specific_metadata === 'string') fields.specific_metadata = keepPersonEdits(this.store.byId(assetId)?.specific_metadata ?? null, fields.specific_metadata);
        this.store.update(assetId, { ...fields, state: 'ready', last_error: null }, now);
        const id = linkMediaItem(this.db, this.store, this.store.byId(assetId)!, now);
        afterAssetReady(this.db, asset); // queues stack detection for the repository (features/stacks)
        done.push(STATUS.mediaItem);
        this.store.update(assetId, { status: JSON.stringify(done) }, now);
        if (receiptId) this.store.setReceipt(receiptId, { status: 'completed', asset_id: assetId }, now);
        return id;
      }).immediate();
      ctx.progress(1, 'ready');
      return { state: `ready (${mediaItemId})` };
    } catch (err) {
      const permanent = err instanceof FailNow || err instanceof MediaDecodeError;
      const lastAttempt = ctx.attempt >= ctx.job.max_attempts;
      if (permanent || lastAttempt) {
        const code = err instanceof FailNow ? err.code : err instanceof MediaDecodeError ? STATUS.failedCorrupt : STATUS.failedTool;
        // Members read this: never show server paths, only the repository-relative one.
        const raw = err instanceof MediaToolMissingError ? err.message : (err as Error).message;
        const reason = raw.split(file).join(asset.storage_path).split(repo.path).join('');
        this.fail(asset, code, reason, receiptId);
        throw new PermanentError(reason, { cause: err });
      }
      this.store.update(assetId, { state: 'pending', last_error: (err as Error).message }, this.now());
      throw err;
    }
  }

  private fail(asset: AssetRow, code: number, reason: string, receiptId: string | null): void {
    const now = this.now();
    this.db.transaction(() => {
      this.store.update(asset.asset_id, { state: 'failed', status: JSON.stringify([STATUS.indexed, code]), last_error: reason }, now);
      if (receiptId) {
        const problem = { type: 'urn:hearth:problem:processing_failed', title: 'Processing failed', status: 422, detail: reason, code: 'processing_failed', retryable: code === STATUS.failedTool };
        this.store.setReceipt(receiptId, { status: 'failed', asset_id: asset.asset_id, problem: JSON.stringify(problem) }, now);
      }
    }).immediate();
    this.log.warn({ asset_id: asset.asset_id, path: asset.storage_path, reason }, 'asset processing failed');
  }

  private async photo(asset: AssetRow, file: string, type: Awaited<ReturnType<typeof detect>>, fields: Fields, done: number[], ctx: Pick<JobContext, 'progress'>) {
    // Metadata and thumbnails at the same time: the metadata is read and parsed on this (JavaScript) thread
    // while libvips decodes and encodes on its own, so neither waits for the other. Outcomes are taken in the
    // old order: a metadata error (the file itself unreadable) is reported before a decode error.
    const thumbnails = generateThumbnails(
      file,
      { small: this.derivatives.thumbnail(asset.asset_id, 'small'), medium: this.derivatives.thumbnail(asset.asset_id, 'medium'), large: this.derivatives.thumbnail(asset.asset_id, 'large') },
      { type, phash: true },
    ).then(
      (value) => ({ ok: true as const, value }),
      (e: unknown) => ({ ok: false as const, error: e instanceof MediaDecodeError ? e : new MediaDecodeError(asset.original_filename, `the image could not be decoded (${(e as Error).message})`, { cause: e }) }),
    );
    const metadata = await extractPhotoMetadata(file, { type }).catch(async (e: unknown) => {
      await thumbnails; // never leave libvips writing into an asset whose job has already failed
      throw e;
    });
    const { metadata: m, exif } = metadata;
    done.push(STATUS.metadata);
    ctx.progress(0.3, 'metadata');
    const outcome = await thumbnails;
    if (!outcome.ok) throw outcome.error;
    const thumbs = outcome.value;
    done.push(STATUS.thumbnails, STATUS.phash, STATUS.webCopy);
    ctx.progress(0.9, 'thumbnails');
    Object.assign(fields, {
      width: m.width ?? thumbs.source.width,
      height: m.height ?? thumbs.source.height,
      taken_time: isoToMs(m.taken_time),
      capture_offset_minutes: m.capture_offset_minutes,
      gps_latitude: m.gps_latitude,
      gps_longitude: m.gps_longitude,
      content_id: m.content_identifier,
      phash: thumbs.phash ?? null,
      exif_raw: JSON.stringify(exif),
      specific_metadata: JSON.stringify({
        camera_make: m.make,
        camera_model: m.model,
        lens_model: m.lens_model,
        f_number: m.f_number,
        exposure_time: m.exposure_time,
        iso_speed: m.iso_speed,
        focal_length: m.focal_length,
        exposure_compensation: m.exposure_compensation,
        description: m.description,
        is_raw: type?.isRaw ?? false,
        content_identifier: m.content_identifier,
        rating: m.rating,
        keywords: m.keywords,
        gps_altitude: m.gps_altitude,
        orientation: m.orientation,
      }),
    } satisfies Fields);
    if (m.description && !asset.description) fields.description = m.description;
    if (m.rating && !asset.rating) fields.rating = Math.max(0, Math.min(5, Math.round(m.rating)));
  }

  private async video(asset: AssetRow, file: string, fields: Fields, done: number[], ctx: Pick<JobContext, 'progress' | 'signal'>) {
    const { info } = await probeVideo(file, { signal: ctx.signal });
    done.push(STATUS.metadata);
    const poster = this.derivatives.poster(asset.asset_id);
    await posterFrame(file, poster, { duration: info.duration });
    const thumbs = await generateThumbnails(
      poster,
      { small: this.derivatives.thumbnail(asset.asset_id, 'small'), medium: this.derivatives.thumbnail(asset.asset_id, 'medium'), large: this.derivatives.thumbnail(asset.asset_id, 'large') },
      { phash: true },
    );
    done.push(STATUS.thumbnails, STATUS.phash);
    ctx.progress(0.2, 'poster');
    const web = this.derivatives.webVideo(asset.asset_id);
    if (needsWebVideo(info)) {
      await transcodeWebVideo(file, web, (p) => p.fraction !== null && ctx.progress(0.2 + 0.75 * p.fraction, 'web video'), { duration: info.duration, signal: ctx.signal });
    } else fs.rmSync(web, { force: true });
    done.push(STATUS.webCopy);
    Object.assign(fields, {
      width: info.width,
      height: info.height,
      duration: info.duration,
      taken_time: isoToMs(info.creation_time),
      capture_offset_minutes: info.capture_offset_minutes,
      gps_latitude: info.gps?.latitude ?? null,
      gps_longitude: info.gps?.longitude ?? null,
      content_id: info.content_identifier,
      phash: thumbs.phash ?? null,
      specific_metadata: JSON.stringify({
        camera_make: info.make,
        camera_model: info.model,
        video_codec: info.video_codec,
        audio_codec: info.audio_codec,
        fps: info.fps,
        bitrate: info.bitrate,
        rotation: info.rotation,
        container: info.container,
        content_identifier: info.content_identifier,
        web_copy: needsWebVideo(info),
      }),
    } satisfies Fields);
  }

  private async audio(asset: AssetRow, file: string, fields: Fields, done: number[], ctx: Pick<JobContext, 'progress' | 'signal'>) {
    const { info } = await probeAudio(file, { signal: ctx.signal });
    done.push(STATUS.metadata);
    const web = this.derivatives.webAudio(asset.asset_id);
    if (needsWebAudio(info)) {
      await transcodeWebAudio(file, web, (p) => p.fraction !== null && ctx.progress(0.1 + 0.85 * p.fraction, 'web audio'), { signal: ctx.signal });
    } else fs.rmSync(web, { force: true });
    done.push(STATUS.webCopy);
    Object.assign(fields, {
      duration: info.duration,
      specific_metadata: JSON.stringify({
        codec: info.codec,
        container: info.container,
        sample_rate: info.sample_rate,
        channels: info.channels,
        bitrate: info.bitrate,
        title: info.title,
        artist: info.artist,
        album: info.album,
        web_copy: needsWebAudio(info),
      }),
    } satisfies Fields);
  }
}

/** A failure that retrying cannot fix. */
class FailNow extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}



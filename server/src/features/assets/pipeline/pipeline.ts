/**
 * The media pipeline for one asset (the `assets.process-asset` job):
 *   photo: metadata (exifr + own HEIF/CR3 parsing) → the small thumbnail (the timeline's) with the
 *          perceptual hash from the same decode (HEIC via wasm, RAW via its embedded preview)
 *   video: ffprobe metadata → poster frame → small thumbnail + pHash from the poster → web MP4 when the
 *          original will not play in a browser
 * The medium and large thumbnails are made on their first request (lazy-thumbnails.ts); a run removes those
 * of the file's previous content first, so they are made again from this one.
 *   audio: ffprobe metadata → web MP3 when needed
 * then the media item (RAW+JPEG pair, live photo, single). A video or sound file on a machine without
 * ffprobe/ffmpeg waits for the tool (status 930, state `pending`): what its container's boxes say is kept
 * (size, duration, capture time, place), placeholder thumbnails stand in, it is linked into its media item,
 * and it is processed again once the tool is found (waiting-for-tools.ts). A damaged, cut short or unsupported file ends
 * `failed` (900) at once with a fixed sentence per format (adapters/media/damage.ts); only a failure of a tool
 * or of the machine is retried, then fails visibly (920).
 * A RAW whose embedded preview is missing or undecodable keeps its metadata and gets placeholder thumbnails
 * (status 31, `specific_metadata.preview_missing`): when it was taken and with what camera never depends on
 * the preview.
 */
import { geohashFields } from '../../places/index.ts';
import { forSystem } from '../../../platform/access/index.ts';
import fs from 'node:fs';
import { detect, type DetectedType } from '../../../adapters/media/detect.ts';
import { stillDetected } from '../../../adapters/media/detect.ts';
import { MediaDamagedError, MediaDecodeError, MediaToolMissingError } from '../../../adapters/media/errors.ts';
import { asDamage, assertIntactContainer, photoDecodeFailure, unreadableRawReason } from '../../../adapters/media/damage.ts';
import { writePlaceholderThumbnails } from '../../../adapters/media/placeholder.ts';
import { extractMotionVideo, locateMotionVideo, type MotionPhotoClaim } from '../../../adapters/media/motion-photo.ts';
import { extractPhotoMetadata } from '../../../adapters/media/photo-metadata.ts';
import { generateThumbnails } from '../../../adapters/media/thumbnails.ts';
import { openImage } from '../../../adapters/media/image-source.ts';
import { PHASH_VERSION } from '../../../adapters/media/phash.ts';
import { needsWebVideo, posterFrame, probeVideo, readVideoContainer, transcodeWebVideo, type VideoInfo } from '../../../adapters/media/video.ts';
import { needsWebAudio, probeAudio, transcodeWebAudio } from '../../../adapters/media/audio.ts';
import type { Db } from '../../../platform/db/connection.ts';
import { prepared } from '../../../platform/db/prepared.ts';
import { failpoint } from '../../../platform/failpoints.ts';
import { PermanentError, SnoozeError, type JobContext } from '../../../platform/jobs/registry.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { RepositoriesService } from '../../repositories/index.ts';
import { AssetsStore, type AssetRow } from '../assets.store.ts';
import type { DerivativePaths } from '../derivatives.ts';
import { resolveInRepository } from '../ingest/ingest.service.ts';
import { linkMediaItem } from './media-items.ts';
import { assetRef, type AssetChangeBus } from '../asset-changes.ts';
import { STATUS } from './status-codes.ts';
import { keepPersonEdits } from '../api/asset-updates.ts';
import { settleFacts, type KeptFacts } from '../fact-precedence.ts';
import { LAZY_SIZES } from '../api/lazy-thumbnails.ts';
import { waitingReason } from './waiting-for-tools.ts';

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
    private readonly changes: AssetChangeBus,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new AssetsStore(db);
  }

  async process(assetId: string, ctx: Pick<JobContext, 'attempt' | 'signal' | 'progress' | 'job'>, detected: DetectedType | null = null): Promise<{ state: string }> {
    // The pipeline works for the catalog, not for a member: the job names the asset.
    const id = forSystem('asset', assetId);
    const asset = this.store.byId(id);
    if (!asset) throw new PermanentError(`asset ${assetId} no longer exists`);
    const repo = this.repositories.byId(asset.repository_id);
    if (!repo) throw new PermanentError(`repository of asset ${assetId} no longer exists`);
    const file = resolveInRepository(repo.path, asset.storage_path);
    // A second run queued because the file changed while a first one was running (ingest.service.ts)
    // starts after it, so the two never write the same derivatives at once.
    if (this.otherRunOf(assetId, ctx.job.id)) throw new SnoozeError(500, 'waiting for the previous run on this file to finish');
    this.store.update(assetId, { state: 'processing' }, this.now());
    // The file was replaced while this run read it: the run queued for the new content writes the result.
    const replaced = (now: AssetRow | undefined): now is undefined => !now || now.hash !== asset.hash || now.file_size !== asset.file_size;
    const superseded = () => replaced(this.store.byId(id));
    failpoint('asset.process');
    const fields: Fields = {};
    const done: number[] = [STATUS.indexed];

    try {
      if (!fs.existsSync(file)) throw new FailNow(STATUS.failedMissing, 'The file disappeared before it could be processed.');
      const type = stillDetected(detected, asset.mime_type) ?? (await detect(file)); // detected once, at ingest
      if (!type) throw new FailNow(STATUS.failedCorrupt, 'Not a photo, video or audio file Hearth can read.');
      await this.prepareDerivatives(assetId);
      if (asset.type === 'PHOTO') await this.photo(asset, file, type, fields, done, ctx);
      else if (asset.type === 'VIDEO') await this.video(asset, file, type, fields, done, ctx);
      else await this.audio(asset, file, type, fields, done, ctx);

      const now = this.now();
      const mediaItemId = this.db.transaction(() => {
        // The row is read once here (and once at the start): the rest of the transaction works from it.
        const current = this.store.byId(id);
        if (replaced(current)) return null;
        const written = this.settle(fields, current, now);
        // The status names the media item step already: linking happens in this transaction, so a failure
        // there rolls the status back with everything else. One UPDATE of the asset instead of two (each
        // fires its change-journal and search triggers).
        done.push(STATUS.mediaItem);
        const final = { ...fields, state: 'ready' as const, last_error: null, status: JSON.stringify(done) };
        this.store.update(assetId, final, now);
        const itemId = linkMediaItem(this.db, this.store, { ...written, ...final, updated_at: now }, now);
        this.changes.emit('asset.ready', { ...assetRef(asset), media_item_id: itemId });
        return itemId;
      }).immediate();
      if (mediaItemId === null) return { state: 'superseded: the file changed; processed again' };
      ctx.progress(1, 'ready');
      return { state: `ready (${mediaItemId})` };
    } catch (err) {
      if (superseded()) return { state: 'superseded: the file changed; processed again' };
      if (err instanceof MediaToolMissingError && this.stillRunning(ctx.job)) return this.waitForTool(asset, err, fields, done, replaced);
      // Cancelled or taken back while it ran: whoever did that settled the asset (interrupted-assets.ts)
      // in the same transaction; this run's abort error must not overwrite it.
      if (!this.stillRunning(ctx.job)) throw err;
      const permanent = err instanceof FailNow || err instanceof MediaDecodeError || err instanceof MediaDamagedError;
      const lastAttempt = ctx.attempt >= ctx.job.max_attempts;
      if (permanent || lastAttempt) {
        const code = err instanceof FailNow ? err.code : err instanceof MediaDecodeError || err instanceof MediaDamagedError ? STATUS.failedCorrupt : STATUS.failedTool;
        // Members read this: never show server paths, only the repository-relative one. Damage is told in
        // its fixed sentence; the tool's own words go to the log only.
        const raw = err instanceof MediaDamagedError ? err.reason : (err as Error).message;
        const reason = raw.split(file).join(asset.storage_path).split(repo.path).join('');
        if (err instanceof MediaDamagedError) this.log.info({ asset_id: asset.asset_id, detail: err.detail.split(file).join(asset.storage_path) }, 'damaged input');
        this.fail(asset, code, reason);
        throw new PermanentError(reason, { cause: err });
      }
      this.store.update(assetId, { state: 'pending', last_error: (err as Error).message }, this.now());
      throw err;
    }
  }

  /**
   * Turns what was read into the columns to write, in the commit transaction, from the row as it is now: a person's
   * metadata edits stay as they left them (`keepPersonEdits`); capture time and zone, place, description, favourite
   * and rating by the one precedence rule (fact-precedence.ts: a person's edit > the source's facts > the file's
   * metadata > the file's own dates); the geohashes are written with the position they come from (features/places),
   * so they are never stale. Returns the row as it will be once `fields` are written.
   */
  private settle(fields: Fields, row: AssetRow, now: number): AssetRow {
    if (typeof fields.specific_metadata === 'string') fields.specific_metadata = keepPersonEdits(row.specific_metadata, fields.specific_metadata);
    const read = {
      taken_time: fields.taken_time ?? null,
      capture_offset_minutes: fields.capture_offset_minutes ?? null,
      gps_latitude: fields.gps_latitude ?? null,
      gps_longitude: fields.gps_longitude ?? null,
      description: fields.description ?? null,
      rating: fields.rating ?? null,
    };
    for (const k of Object.keys(read)) delete fields[k as keyof typeof read];
    const kept: KeptFacts | null = this.store.sourceFacts(row.asset_id);
    Object.assign(fields, settleFacts(row, read, kept));
    if ('gps_latitude' in fields) Object.assign(fields, geohashFields(fields.gps_latitude ?? null, fields.gps_longitude ?? null));
    // The one-shot facts (favourite, rating, description) had their turn.
    if (kept?.fresh) this.store.factsApplied(row.asset_id, now);
    return { ...row, ...fields };
  }

  /**
   * The asset's derivatives folder, without the sizes made on request from the file's previous content. Off the
   * JavaScript thread (libuv's pool): on the first run of an asset (every file of an import) the folder is new,
   * so there is nothing to remove; the synchronous mkdir and the removal of two missing files cost 0.9 ms of the
   * server thread per photo, a tenth of its share of the base pipeline (scripts/bench/ingest.ts).
   */
  private async prepareDerivatives(assetId: string): Promise<void> {
    const dir = this.derivatives.dir(assetId);
    // mkdir -p answers the first folder it made, undefined when the folder was there: made now, it is empty.
    if ((await fs.promises.mkdir(dir, { recursive: true })) !== undefined) return;
    await Promise.all(LAZY_SIZES.map((size) => fs.promises.rm(this.derivatives.thumbnail(assetId, size), { force: true })));
  }

  /** Whether this attempt of the job is still the one the queue counts as running. */
  private stillRunning(job: Pick<JobContext['job'], 'id' | 'attempt'>): boolean {
    return !!prepared(this.db, "SELECT 1 FROM jobs WHERE id = ? AND state = 'running' AND attempt = ?").get(job.id, job.attempt);
  }

  /** Whether another process-asset job of this asset is running now. */
  private otherRunOf(assetId: string, jobId: number): boolean {
    return !!prepared(this.db, "SELECT 1 FROM jobs WHERE state = 'running' AND kind = 'assets.process-asset' AND id <> ? AND json_extract(args, '$.asset_id') = ? LIMIT 1").get(jobId, assetId);
  }

  /**
   * A tool is not installed: not the file's fault, so never `failed`. The asset keeps what was read (the
   * container's boxes), shows placeholder thumbnails, joins its media item and stays `pending` with status 930
   * and the install hint in `last_error` (`asset.waiting`: an upload's receipt is completed, the file is safe in the library).
   * The job ends completed: nothing retries until the tool is there (waiting-for-tools.ts queues it again).
   */
  private async waitForTool(asset: AssetRow, err: MediaToolMissingError, fields: Fields, done: number[], superseded: (now: AssetRow | undefined) => now is undefined) {
    const reason = waitingReason(err.tool);
    const steps: number[] = done.filter((c) => c === STATUS.indexed || c === STATUS.metadata);
    // A video's tile in the timeline until its poster can be made (a sound file has no picture).
    if (asset.type === 'VIDEO') {
      await writePlaceholderThumbnails(this.thumbnailTargets(asset.asset_id), { width: fields.width ?? null, height: fields.height ?? null });
      steps.push(STATUS.placeholderThumbnails);
    }
    const now = this.now();
    const id = forSystem('asset', asset.asset_id);
    const written = this.db.transaction(() => {
      const current = this.store.byId(id);
      if (superseded(current)) return false;
      // What the boxes said, by the same rules as a finished run: the modification time where they give no
      // date, and a person's correction stays.
      const settled = this.settle(fields, current, now);
      const final = { ...fields, state: 'pending' as const, status: JSON.stringify([...steps, STATUS.waitingForTool]), last_error: reason };
      this.store.update(asset.asset_id, final, now);
      linkMediaItem(this.db, this.store, { ...settled, ...final, updated_at: now }, now);
      this.changes.emit('asset.waiting', { ...assetRef(asset), tool: err.tool, reason });
      return true;
    }).immediate();
    if (!written) return { state: 'superseded: the file changed; processed again' };
    this.log.warn({ asset_id: asset.asset_id, tool: err.tool }, 'waiting for a media tool that is not installed');
    return { state: `waiting for ${err.tool}` };
  }

  private fail(asset: AssetRow, code: number, reason: string): void {
    const now = this.now();
    this.db.transaction(() => {
      this.store.update(asset.asset_id, { state: 'failed', status: JSON.stringify([STATUS.indexed, code]), last_error: reason }, now);
      this.changes.emit('asset.failed', { ...assetRef(asset), reason, retryable: code === STATUS.failedTool });
    }).immediate();
    this.log.warn({ asset_id: asset.asset_id, path: asset.storage_path, reason }, 'asset processing failed');
  }

  private async photo(asset: AssetRow, file: string, type: Awaited<ReturnType<typeof detect>>, fields: Fields, done: number[], ctx: Pick<JobContext, 'progress' | 'signal'>) {
    // Metadata and thumbnails at the same time: the metadata is read and parsed on this (JavaScript) thread
    // while libvips decodes and encodes on its own, so neither waits for the other. Outcomes are taken in the
    // old order: a metadata error (the file itself unreadable) is reported before a decode error.
    // The photo is opened once for both: the header sharp reads to decode it also gives the metadata its
    // displayed size (no second read of the file's head, no second header parse).
    const opened = openImage(file, { type });
    const thumbnails = generateThumbnails(file, this.eagerThumbnails(asset.asset_id), { type, phash: true, opened }).then(
      (value) => ({ ok: true as const, value }),
      (e: unknown) => ({ ok: false as const, error: photoDecodeFailure(type, e) }),
    );
    const header = opened.then(
      (o) => o.metadata,
      () => null,
    );
    const metadata = await extractPhotoMetadata(file, { type, header }).catch(async (e: unknown) => {
      await thumbnails; // never leave libvips writing into an asset whose job has already failed
      throw e;
    });
    const { metadata: m, exif } = metadata;
    done.push(STATUS.metadata);
    ctx.progress(0.3, 'metadata');
    const outcome = await thumbnails;
    let thumbs: Awaited<ReturnType<typeof generateThumbnails>> | null = null;
    if (outcome.ok) {
      thumbs = outcome.value;
      done.push(STATUS.thumbnails, STATUS.phash, STATUS.webCopy);
    } else if (type?.isRaw && hasCatalogMetadata(m)) {
      // The preview is missing or damaged, the metadata is not: keep it and show a placeholder.
      await writePlaceholderThumbnails(this.thumbnailTargets(asset.asset_id), { width: m.width, height: m.height });
      done.push(STATUS.placeholderThumbnails);
      this.log.info({ asset_id: asset.asset_id, detail: outcome.error.detail.split(file).join(asset.storage_path) }, 'RAW without a usable preview: placeholder thumbnails');
    } else if (type?.isRaw) {
      throw new MediaDamagedError(unreadableRawReason(type), outcome.error.detail, { cause: outcome.error });
    } else throw outcome.error;
    ctx.progress(0.8, 'thumbnails');
    const motion = m.motion_photo ? await this.motionClip(asset, file, m.motion_photo, ctx) : null;
    ctx.progress(0.9, 'motion');
    Object.assign(fields, {
      width: m.width ?? thumbs?.source.width ?? null,
      height: m.height ?? thumbs?.source.height ?? null,
      taken_time: isoToMs(m.taken_time),
      capture_offset_minutes: m.capture_offset_minutes,
      gps_latitude: m.gps_latitude,
      gps_longitude: m.gps_longitude,
      content_id: m.content_identifier,
      phash: thumbs?.phash ?? null,
      phash_windows: thumbs?.phashWindows ?? null,
      phash_version: PHASH_VERSION,
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
        ...(thumbs ? {} : { preview_missing: true }),
        ...(motion ? { motion_photo: motion } : {}),
      }),
    } satisfies Fields);
    // The embedded caption and rating: the precedence rule decides in the commit (fact-precedence.ts).
    fields.description = m.description ?? null;
    if (m.rating) fields.rating = m.rating;
  }

  /**
   * The video of a motion photo, out of the file into `motion.mp4` (as is when a browser plays it, else its
   * H.264/AAC web copy); the asset then links as a live photo and getAssetWebVideo serves the clip. A clip that
   * is not where the XMP says, or is damaged, leaves a plain photo (the still is what matters); a tool failure
   * is thrown and retried like any other.
   */
  private async motionClip(asset: AssetRow, file: string, claim: MotionPhotoClaim, ctx: Pick<JobContext, 'signal'>) {
    const dest = this.derivatives.motionVideo(asset.asset_id);
    const where = await locateMotionVideo(file, claim);
    if (!where) {
      fs.rmSync(dest, { force: true });
      this.log.info({ asset_id: asset.asset_id, dialect: claim.dialect }, 'motion photo (XMP, mpvd box or Samsung trailer) without a video where it says: kept as a plain photo');
      return null;
    }
    const extracted = `${dest}.embedded.mp4`;
    try {
      await extractMotionVideo(file, where, extracted);
      const { info } = await probeVideo(extracted, { signal: ctx.signal });
      const web = needsWebVideo(info);
      if (web) await transcodeWebVideo(extracted, dest, () => {}, { duration: info.duration, signal: ctx.signal });
      else fs.renameSync(extracted, dest);
      return {
        dialect: claim.dialect,
        video_offset: where.offset,
        video_length: where.length,
        presentation_timestamp_us: claim.presentationTimestampUs,
        duration: info.duration,
        video_codec: info.video_codec,
        web_copy: web,
      };
    } catch (e) {
      // Without ffmpeg the still is kept as a plain photo (what matters); reprocessAsset adds the clip later.
      if (e instanceof MediaToolMissingError) {
        fs.rmSync(dest, { force: true });
        this.log.warn({ asset_id: asset.asset_id, tool: e.tool }, 'motion photo clip not extracted: the tool is not installed');
        return null;
      }
      const damage = asDamage({ kind: 'video', mime: 'video/mp4', ext: 'mp4', isRaw: false }, e);
      if (!(damage instanceof MediaDamagedError)) throw e;
      fs.rmSync(dest, { force: true });
      this.log.info({ asset_id: asset.asset_id, detail: damage.detail }, 'motion photo with a damaged embedded video: kept as a plain photo');
      return null;
    } finally {
      fs.rmSync(extracted, { force: true });
    }
  }

  /** What ingest makes: the timeline's size. The others follow on request (lazy-thumbnails.ts). */
  private eagerThumbnails(assetId: string) {
    return { small: this.derivatives.thumbnail(assetId, 'small') };
  }

  /** Every size: placeholders are written at once for all of them (nothing to decode later). */
  private thumbnailTargets(assetId: string) {
    return { small: this.derivatives.thumbnail(assetId, 'small'), medium: this.derivatives.thumbnail(assetId, 'medium'), large: this.derivatives.thumbnail(assetId, 'large') };
  }

  private async video(asset: AssetRow, file: string, type: DetectedType | null, fields: Fields, done: number[], ctx: Pick<JobContext, 'progress' | 'signal'>) {
    await assertIntactContainer(file, type);
    try {
      await this.videoSteps(asset, file, fields, done, ctx);
    } catch (e) {
      if (e instanceof MediaToolMissingError && !done.includes(STATUS.metadata)) {
        // No ffprobe: what the movie's own boxes say, so the video is never without it.
        const info = await readVideoContainer(file);
        if (info) {
          Object.assign(fields, videoFields(info, null, { container_boxes_only: true }));
          done.push(STATUS.metadata);
        }
      }
      throw asDamage(type, e);
    }
  }

  private async videoSteps(asset: AssetRow, file: string, fields: Fields, done: number[], ctx: Pick<JobContext, 'progress' | 'signal'>) {
    const { info } = await probeVideo(file, { signal: ctx.signal });
    done.push(STATUS.metadata);
    // Kept even when a later step finds ffmpeg missing (the asset then waits for it with this metadata).
    Object.assign(fields, videoFields(info, null));
    const poster = this.derivatives.poster(asset.asset_id);
    await posterFrame(file, poster, { duration: info.duration });
    const thumbs = await generateThumbnails(poster, this.eagerThumbnails(asset.asset_id), { phash: true });
    done.push(STATUS.thumbnails, STATUS.phash);
    ctx.progress(0.2, 'poster');
    const web = this.derivatives.webVideo(asset.asset_id);
    if (needsWebVideo(info)) {
      await transcodeWebVideo(file, web, (p) => p.fraction !== null && ctx.progress(0.2 + 0.75 * p.fraction, 'web video'), { duration: info.duration, signal: ctx.signal });
    } else fs.rmSync(web, { force: true });
    done.push(STATUS.webCopy);
    Object.assign(fields, videoFields(info, thumbs.phash ?? null));
  }

  private async audio(asset: AssetRow, file: string, type: DetectedType | null, fields: Fields, done: number[], ctx: Pick<JobContext, 'progress' | 'signal'>) {
    try {
      await this.audioSteps(asset, file, fields, done, ctx);
    } catch (e) {
      throw asDamage(type, e);
    }
  }

  private async audioSteps(asset: AssetRow, file: string, fields: Fields, done: number[], ctx: Pick<JobContext, 'progress' | 'signal'>) {
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

/** The catalog fields of a video; `extra` joins specific_metadata (`container_boxes_only` without ffprobe). */
function videoFields(info: VideoInfo, phash: string | null, extra: Record<string, unknown> = {}): Fields {
  return {
    width: info.width,
    height: info.height,
    duration: info.duration,
    taken_time: isoToMs(info.creation_time),
    capture_offset_minutes: info.capture_offset_minutes,
    gps_latitude: info.gps?.latitude ?? null,
    gps_longitude: info.gps?.longitude ?? null,
    content_id: info.content_identifier,
    phash,
    phash_version: PHASH_VERSION,
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
      ...extra,
    }),
  };
}

/** Something a household would search or filter by was read: camera, capture time or size. */
function hasCatalogMetadata(m: { make: string | null; model: string | null; taken_time: string | null; width: number | null }): boolean {
  return Boolean(m.make || m.model || m.taken_time || m.width);
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



/**
 * One asset: reading it and its files, editing it, trash, export, download, edit sidecar. Every operation
 * asks the access layer (platform/access/rules.ts): an asset nobody shared with the caller answers 404, so
 * its existence does not leak; one shared with them (a partner's, an album's) is read-only: changes and the
 * Trash answer 403 `asset_read_only`, while likes and ratings are the reader's own (marks.ts).
 * Administrators get no exception: photos are private to their owner and whom the owner shares them with.
 *
 * Decisions (contract gaps):
 * - getAsset: `ocr_result` is the photo's text as OCR read it (features/ocr/ocr.view.ts: its shape), null
 *   while OCR has not read it; `face_result` is the faces found with their person (null while the face task has not read it). `species_predictions` is absent when
 *   include_species=false, like the other include flags; `stack` is always there (null when not stacked).
 *   `albums` lists only the caller's albums (albums are private too). `place` (always there) is the
 *   position's town, region and country from the offline gazetteer (features/places), null without one.
 * - deleteAsset moves exactly this asset to the Trash (is_deleted, deleted_at); its file is never touched,
 *   its albums, tags and ratings are kept, so a restore brings it back as it was. Deleting an asset already
 *   in the Trash is a no-op answered 200. The partner of a RAW+JPEG pair or live photo stays where it is:
 *   the library then shows the partner (see browse.store.ts).
 * - restoreAsset works only from the Trash (409 `asset_not_in_trash` otherwise) and only when the file is
 *   still in its folder (409 `original_missing`: the asset went to the Trash because its file disappeared;
 *   putting the file back restores it by itself at the next scan or watcher event).
 * - Changes (metadata, description, like, rating, sidecar) to an asset in the Trash are refused with 409
 *   `asset_in_trash`: restore it first. Reading, exporting and downloading it are allowed.
 * - updateAssetMetadata is refused while the asset is pending or processing (409 `asset_processing`): the
 *   pipeline writes specific_metadata when it finishes and would overwrite the change. What may change:
 *   asset-updates.ts.
 * - updateAssetDescription: the text is trimmed; an empty text clears the description (null).
 * - Export: see export.ts. Download: see download-zip.ts; assets in the Trash may be downloaded; unknown
 *   ids and other users' ids answer 404 naming them, files that are gone from disk 409 naming them, both
 *   before any byte is sent. Duplicated ids are packed once.
 * - Sidecar: see sidecar.ts. The repository must be reachable (503 `repository_unavailable` otherwise).
 */
import fs from 'node:fs';
import { MediaDecodeError } from '../../../adapters/media/errors.ts';
import type { Access, Permission, PermittedAssetId } from '../../../platform/access/index.ts';
import { tx, type Db } from '../../../platform/db/connection.ts';
import type { Actor } from '../../../platform/http/context.ts';
import { Conflict, DomainError, Invalid, NotFound, Unavailable, type FieldError } from '../../../platform/http/errors.ts';
import type { JobQueue } from '../../../platform/jobs/queue.ts';
import type { RepositoriesService, RepositoryRow } from '../../repositories/index.ts';
import { mergeSpecificMetadata, type SpecificMetadataEdit } from './asset-updates.ts';
import { assetRef, type AssetChangeBus } from '../asset-changes.ts';
import { processAsset } from '../pipeline/assets.jobs.ts';
import { AssetsStore, type AssetRow } from '../assets.store.ts';
import { MarksStore, withReaderMarks, type Mark } from '../marks.ts';
import { fileCapture, isoTime, loadAssetExtras, toAsset, type Asset } from '../assets.view.ts';
import type { DerivativePaths, ThumbSize } from '../derivatives.ts';
import { streamZip, uniqueEntryNames, type ZipSource } from './download-zip.ts';
import { EXPORT_MIME, LOSSY_FORMATS, exportFileName, renderExport, streamAndRemove, type ExportOptions } from './export.ts';
import { resolveInRepository } from '../ingest/ingest.service.ts';
import { LazyThumbnails } from './lazy-thumbnails.ts';
import { hasEmbeddedMotion } from '../pipeline/media-items.ts';
import { OcrStore, toOcrResult } from '../../ocr/index.ts';
import { faceResult } from '../../faces/index.ts';
import { SidecarUnreadable, readSidecar, sidecarPath, writeSidecar, type Sidecar, type SidecarInput } from './sidecar.ts';

export interface DetailInclude {
  thumbnails: boolean;
  tags: boolean;
  albums: boolean;
  species: boolean;
  ocr: boolean;
  faces: boolean;
}

export interface StreamedDownload {
  stream: ReadableStream<Uint8Array>;
  contentType: string;
  name: string;
  size: number;
}

const message = (text: string) => ({ message: text });

/**
 * How long a browser may keep the 404 of a failed asset's thumbnail. Its URL carries the media token
 * (renewed every ~9 minutes), so this only spares the requests of one token's lifetime; the web UI
 * also remembers failures itself (renderer/src/photos/failed-thumbnails.ts). Decision: five
 * minutes, so a failed photo that is processed again and then succeeds shows its thumbnail within
 * that time even if the same token is still in use.
 */
export const FAILED_THUMBNAIL_CACHE_SECONDS = 300;

export interface FileRef {
  path: string;
  contentType: string;
  etag: string;
  name: string;
}

export class AssetsService {
  private readonly store: AssetsStore;
  private readonly marks: MarksStore;
  private readonly lazyThumbnails: LazyThumbnails;
  private readonly ocr: OcrStore;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    private readonly repositories: Pick<RepositoriesService, 'byId'>,
    private readonly derivatives: DerivativePaths,
    private readonly jobs: JobQueue,
    private readonly changes: AssetChangeBus,
    /** Where encoded exports wait for their download: inside the data folder (container.ts `tmp`). */
    private readonly exportDir: string,
  ) {
    this.store = new AssetsStore(db);
    this.marks = new MarksStore(db);
    this.lazyThumbnails = new LazyThumbnails(this.store, repositories, derivatives);
    this.ocr = new OcrStore(db);
  }

  /** The asset if the caller may `permission` it, or 404 as if it did not exist. */
  private own(actor: Actor, assetId: string, permission: Permission = 'read'): AssetRow {
    const row = this.store.byId(this.access.require(actor, 'asset', assetId, permission));
    if (!row) throw new NotFound('No such asset.', 'asset_not_found');
    return row;
  }

  detail(actor: Actor, assetId: string, include: DetailInclude) {
    const a = this.own(actor, assetId);
    const extras = loadAssetExtras(this.store, [a.asset_id]).get(a.asset_id);
    const [shown] = withReaderMarks(this.marks, actor.userId, [toAsset(a, extras)]);
    const base: Asset & Record<string, unknown> = shown!;
    if (include.thumbnails) {
      base.thumbnails = (['small', 'medium', 'large'] as ThumbSize[])
        .filter((s) => fs.existsSync(this.derivatives.thumbnail(a.asset_id, s)) || this.lazyThumbnails.available(a, s))
        .map((s) => ({ thumbnail_id: `${a.asset_id}:${s}`, size: s, mime_type: 'image/webp', storage_path: `/api/v1/assets/${a.asset_id}/thumbnail?size=${s}` }));
    }
    if (include.tags) base.tags = this.store.tagLinks(a.asset_id);
    if (include.albums) {
      base.albums = this.store
        .albumsOf(a.asset_id, actor.userId)
        .map((r) => ({ added_time: isoTime(r.added_at)!, album_id: r.album_id, album_name: r.album_name, position: r.position }));
    }
    if (!include.species) delete (base as Partial<Asset>).species_predictions;
    if (include.ocr) {
      const read = this.ocr.resultOf(a.asset_id);
      base.ocr_result = read ? toOcrResult(read, { width: a.width, height: a.height }) : null;
    }
    if (include.faces) base.face_result = faceResult(this.db, a.asset_id);
    base.place = this.store.placeOf(a.asset_id) ?? null;
    base.file_capture = fileCapture(a);
    return base;
  }

  /** The logical media item the asset belongs to (null while the asset is not processed yet). */
  mediaItem(actor: Actor, assetId: string) {
    const a = this.own(actor, assetId);
    const m = this.store.mediaItemOf(a.asset_id);
    return {
      asset_id: a.asset_id,
      media_item: m ? { media_item_id: m.item.media_item_id, media_kind: m.item.media_kind, primary_asset_id: m.item.primary_asset_id, components: m.components } : null,
    };
  }

  exif(actor: Actor, assetId: string) {
    const a = this.own(actor, assetId);
    return { asset_id: a.asset_id, exif_raw: a.exif_raw ? (JSON.parse(a.exif_raw) as Record<string, unknown>) : {} };
  }

  /**
   * A thumbnail file. Medium and large are made on their first request (lazy-thumbnails.ts); when that is
   * impossible (the original is gone or unreadable) the small one is answered instead, under its own ETag.
   */
  async thumbnail(actor: Actor, assetId: string, size: ThumbSize): Promise<FileRef> {
    return this.thumbnailFor(this.own(actor, assetId), size);
  }

  private async thumbnailFor(a: AssetRow, size: ThumbSize): Promise<FileRef> {
    const made = await this.lazyThumbnails.ensure(a, size);
    const served: ThumbSize = made || size === 'small' ? size : 'small';
    const p = this.derivatives.thumbnail(a.asset_id, served);
    if (!fs.existsSync(p)) {
      if (a.state === 'failed') {
        // Not coming until the asset is processed again: say so with its own code, and let the
        // browser keep this answer, so a grid scrolled back and forth does not ask again (issue 12).
        throw new DomainError(404, 'thumbnail_failed', `No thumbnail: ${a.last_error ?? 'processing failed'}`, { cacheSeconds: FAILED_THUMBNAIL_CACHE_SECONDS });
      }
      throw new NotFound('The thumbnail is not ready yet.', 'thumbnail_not_ready');
    }
    return { path: p, contentType: 'image/webp', etag: `${a.hash}-${served}-${a.updated_at}`, name: `${a.asset_id}-${served}.webp` };
  }

  /**
   * The picture a face's crop is cut from (people's covers): the asset's medium thumbnail, made now if it is
   * missing, so that a cover is the same picture whether or not someone opened the photo before; the original
   * only while no medium size can be made (the asset is not ready, or its file is unreadable). The caller has
   * already been allowed the face (platform/access: `face`), hence a system read of its asset.
   */
  async faceCropSource(assetId: PermittedAssetId): Promise<string | null> {
    const a = this.store.byId(assetId);
    if (!a) return null;
    if (await this.lazyThumbnails.ensure(a, 'medium')) return this.derivatives.thumbnail(a.asset_id, 'medium');
    const file = this.filePath(a);
    return file && fs.existsSync(file) ? file : null;
  }

  original(actor: Actor, assetId: string): FileRef {
    return this.originalFor(this.own(actor, assetId));
  }

  private originalFor(a: AssetRow): FileRef {
    const repo = this.repositories.byId(a.repository_id);
    if (!repo) throw new NotFound('The repository of this asset is gone.', 'repository_not_found');
    return { path: resolveInRepository(repo.path, a.storage_path), contentType: a.mime_type, etag: `${a.hash}`, name: a.original_filename };
  }

  /** Absolute path of the asset's file, or null when its repository is gone or the path is unusable. */
  private filePath(a: AssetRow): string | null {
    const repo = this.repositories.byId(a.repository_id);
    if (!repo) return null;
    try {
      return resolveInRepository(repo.path, a.storage_path);
    } catch {
      return null;
    }
  }

  /**
   * The browser-playable copy: the web transcode when one was needed, else the original. For a motion photo
   * (a still whose clip is embedded in the same file) the video is that clip, extracted by the pipeline.
   */
  webMedia(actor: Actor, assetId: string, kind: 'VIDEO' | 'AUDIO'): FileRef {
    return this.webFor(this.own(actor, assetId), kind);
  }

  private webFor(a: AssetRow, kind: 'VIDEO' | 'AUDIO'): FileRef {
    if (kind === 'VIDEO' && a.type === 'PHOTO' && a.state === 'ready' && hasEmbeddedMotion(a)) {
      const clip = this.derivatives.motionVideo(a.asset_id);
      if (fs.existsSync(clip)) return { path: clip, contentType: 'video/mp4', etag: `${a.hash}-motion-${a.updated_at}`, name: `${a.original_filename.replace(/\.[^.]*$/, '')}.mp4` };
    }
    if (a.type !== kind) throw new NotFound(`This asset is not ${kind === 'VIDEO' ? 'a video' : 'audio'}.`, 'wrong_asset_type');
    if (a.state !== 'ready') throw new NotFound('The playable copy is not ready yet.', 'web_copy_not_ready');
    const web = kind === 'VIDEO' ? this.derivatives.webVideo(a.asset_id) : this.derivatives.webAudio(a.asset_id);
    if (fs.existsSync(web)) return { path: web, contentType: kind === 'VIDEO' ? 'video/mp4' : 'audio/mpeg', etag: `${a.hash}-web`, name: a.original_filename };
    return this.originalFor(a);
  }

  // ---------------------------------------------------------------------------------------------------
  // Files of assets checked by someone else than a member (a public link: features/sharing asks the
  // access layer, which hands out these ids)

  async thumbnailOf(id: PermittedAssetId, size: ThumbSize): Promise<FileRef> {
    const a = this.store.byId(id);
    if (!a) throw new NotFound('No such asset.', 'asset_not_found');
    return this.thumbnailFor(a, size);
  }

  /** The browser-playable copy of a video (or a motion photo's clip), as webMedia. */
  videoOf(id: PermittedAssetId): FileRef {
    const a = this.store.byId(id);
    if (!a) throw new NotFound('No such asset.', 'asset_not_found');
    return this.webFor(a, 'VIDEO');
  }

  originalOf(id: PermittedAssetId): FileRef {
    const a = this.store.byId(id);
    if (!a) throw new NotFound('No such asset.', 'asset_not_found');
    return this.originalFor(a);
  }

  /** A streamed zip of these originals; `fieldOf(i)` names the i-th in errors (files gone: 409). */
  zipOf(ids: PermittedAssetId[], name: string, fieldOf: (i: number) => string, onStreamError?: (e: Error) => void): StreamedDownload {
    const rows = new Map(this.store.byIds(ids).map((r) => [r.asset_id, r]));
    return this.zipRows(ids.map((id) => rows.get(id)!).filter(Boolean), (id) => fieldOf(ids.indexOf(id as PermittedAssetId)), name, onStreamError);
  }

  /** Queues the pipeline again. Every task name runs the whole pipeline, which is idempotent. */
  reprocess(actor: Actor, assetId: string, tasks: string[]) {
    const a = this.own(actor, assetId, 'change');
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

  // ---------------------------------------------------------------------------------------------------
  // Trash

  delete(actor: Actor, assetId: string) {
    const a = this.own(actor, assetId, 'change');
    if (a.is_deleted) return message('The asset is already in the Trash.');
    const now = Date.now();
    tx(this.db, () => {
      this.store.update(a.asset_id, { is_deleted: 1, deleted_at: now, deleted_reason: 'user' }, now);
      this.changes.emit('asset.trashed', { ...assetRef(a), reason: 'user' });
    });
    return message('Moved to the Trash. The file was not touched.');
  }

  restore(actor: Actor, assetId: string) {
    const a = this.own(actor, assetId, 'change');
    if (!a.is_deleted) throw new Conflict('The asset is not in the Trash.', 'asset_not_in_trash');
    const file = this.filePath(a);
    if (!file || !fs.existsSync(file)) {
      throw new Conflict(
        'The file of this asset is no longer in its folder (or the folder is offline), so it cannot be restored. Put the file back and it returns by itself.',
        'original_missing',
      );
    }
    const now = Date.now();
    tx(this.db, () => {
      this.store.update(a.asset_id, { is_deleted: 0, deleted_at: null, deleted_reason: null }, now);
      this.changes.emit('asset.restored', assetRef(a));
    });
    return message('Restored from the Trash.');
  }

  // ---------------------------------------------------------------------------------------------------
  // Edits

  /** The caller's asset, not in the Trash (409 otherwise), for changes. */
  private editable(actor: Actor, assetId: string): AssetRow {
    const a = this.own(actor, assetId, 'change');
    if (a.is_deleted) throw new Conflict('The asset is in the Trash; restore it before changing it.', 'asset_in_trash');
    return a;
  }

  updateMetadata(actor: Actor, assetId: string, edit: SpecificMetadataEdit) {
    const a = this.editable(actor, assetId);
    if (a.state === 'pending' || a.state === 'processing') {
      throw new Conflict('The asset is still being processed; change its metadata once it is ready.', 'asset_processing');
    }
    const { json, changed } = mergeSpecificMetadata(a.type, a.specific_metadata, edit);
    const now = Date.now();
    this.store.update(a.asset_id, { specific_metadata: json }, now);
    return message(`Updated ${changed.join(', ')}.`);
  }

  updateDescription(actor: Actor, assetId: string, description: string) {
    const a = this.editable(actor, assetId);
    const text = description.trim();
    const now = Date.now();
    this.store.update(a.asset_id, { description: text === '' ? null : text }, now);
    return message(text === '' ? 'Description cleared.' : 'Description updated.');
  }

  updateLike(actor: Actor, assetId: string, liked: boolean) {
    this.mark(actor, assetId, { liked });
    return message(liked ? 'Liked.' : 'Like removed.');
  }

  updateRating(actor: Actor, assetId: string, rating: number) {
    this.mark(actor, assetId, { rating });
    return message(`Rated ${rating}.`);
  }

  updateRatingAndLike(actor: Actor, assetId: string, v: { liked: boolean; rating: number }) {
    this.mark(actor, assetId, v);
    return message(`Rated ${v.rating}${v.liked ? ' and liked' : ', not liked'}.`);
  }

  /**
   * Likes and ratings are per member (marks.ts): the owner's go on the asset row, a reader's (a
   * partner, an album member) into their own marks. Reading the asset is enough; in the Trash, 409.
   */
  private mark(actor: Actor, assetId: string, mark: Partial<Mark>): void {
    const a = this.own(actor, assetId, 'read');
    if (a.is_deleted) throw new Conflict('The asset is in the Trash; restore it before changing it.', 'asset_in_trash');
    const now = Date.now();
    if (a.owner_id !== actor.userId) {
      this.marks.set(actor.userId, a.asset_id, mark, now);
      return;
    }
    const fields: Partial<AssetRow> = {};
    if (mark.liked !== undefined) fields.liked = mark.liked ? 1 : 0;
    if (mark.rating !== undefined) fields.rating = mark.rating;
    this.store.update(a.asset_id, fields, now);
  }

  // ---------------------------------------------------------------------------------------------------
  // Export and download

  /** Re-encodes a photo (export.ts) and returns the download. */
  async export(actor: Actor, assetId: string, o: ExportOptions & { filename?: string | undefined }): Promise<StreamedDownload> {
    const a = this.own(actor, assetId);
    if (a.type !== 'PHOTO') {
      const what = a.type === 'VIDEO' ? 'a video' : 'audio';
      throw new Invalid(`Export of ${what} as an image is not supported; download the original instead.`, [{ field: 'path.id', message: `is ${what}, not a photo` }], 'export_not_a_photo');
    }
    if (o.quality !== undefined && !LOSSY_FORMATS.includes(o.format)) {
      throw new Invalid('quality applies to the lossy formats (jpeg, webp, avif); PNG is lossless.', [{ field: 'query.quality', message: `does not apply to ${o.format}` }]);
    }
    const file = this.filePath(a);
    if (!file || !fs.existsSync(file)) throw new NotFound('The original file is not available (gone from its folder, or the folder is offline).', 'file_not_found');
    let out;
    try {
      out = await renderExport(file, o, this.exportDir);
    } catch (e) {
      const detail = (e instanceof MediaDecodeError ? e.detail : e instanceof Error ? e.message : String(e)).split(file).join(a.original_filename);
      if (/too large for the (\w+) format/i.test(detail)) {
        const field = o.maxWidth === undefined ? 'query.max_width' : 'query.max_height';
        throw new Invalid(`The image is too large for ${o.format.toUpperCase()}; set max_width or max_height.`, [{ field, message: `needed for an image this large in ${o.format}` }], 'export_too_large');
      }
      throw new Invalid(`The photo could not be decoded for export: ${detail}`, [{ field: 'path.id', message: 'cannot be decoded' }], 'image_not_decodable');
    }
    return { stream: streamAndRemove(out.file), contentType: EXPORT_MIME[o.format], name: exportFileName(o.filename, a.original_filename, o.format), size: out.size };
  }

  /**
   * A streamed zip of the originals of `assetIds` (download-zip.ts). Everything is checked before the first
   * byte: unknown or other users' ids answer 404 naming them, files gone from disk 409 naming them.
   */
  download(actor: Actor, assetIds: string[], onStreamError?: (e: Error) => void): StreamedDownload {
    const ids = [...new Set(assetIds.map((id) => id.toLowerCase()))];
    const fieldOf = (id: string) => `body.asset_ids.${assetIds.findIndex((x) => x.toLowerCase() === id)}`;
    const permitted = this.access.requireAll(actor, 'asset', ids, 'read', (i) => fieldOf(ids[i]!));
    const rows = new Map(this.store.byIds(permitted).map((r) => [r.asset_id, r]));
    const day = new Date().toISOString().slice(0, 10);
    const n = ids.length;
    return this.zipRows(ids.map((id) => rows.get(id)!), fieldOf, `hearth-${day}-${n}-file${n === 1 ? '' : 's'}.zip`, onStreamError);
  }

  /** Checks every file is on disk (409 naming the missing ones, before any byte) and streams the zip. */
  private zipRows(list: AssetRow[], fieldOf: (id: string) => string, name: string, onStreamError?: (e: Error) => void): StreamedDownload {
    const missing: FieldError[] = [];
    const found: { row: AssetRow; file: string; size: number; mtime: Date }[] = [];
    for (const row of list) {
      const id = row.asset_id;
      const file = this.filePath(row);
      try {
        const st = file ? fs.statSync(file) : null;
        if (!file || !st?.isFile()) throw new Error('not a file');
        found.push({ row, file, size: st.size, mtime: st.mtime });
      } catch {
        missing.push({ field: fieldOf(id), message: `the file of ${row.original_filename} (${id}) is not available` });
      }
    }
    if (missing.length) {
      const which = missing.slice(0, 5).map((m) => m.message.replace(/^the file of /, '').replace(/ is not available$/, ''));
      throw new DomainError(409, 'original_missing', `${missing.length} file(s) are gone from their folders, or their folder is offline: ${which.join('; ')}.`, { errors: missing });
    }
    const names = uniqueEntryNames(found.map((f) => f.row.original_filename));
    const sources: ZipSource[] = found.map((f, i) => ({ file: f.file, name: names[i]!, size: f.size, mtime: f.mtime }));
    const { stream, size } = streamZip(sources, onStreamError);
    return { stream, size, contentType: 'application/zip', name };
  }

  // ---------------------------------------------------------------------------------------------------
  // Studio edit sidecar (sidecar.ts)

  private sidecarFile(a: AssetRow): string {
    const repo: RepositoryRow | undefined = this.repositories.byId(a.repository_id);
    if (!repo) throw new NotFound('The repository of this asset is gone.', 'repository_not_found');
    if (repo.status !== 'active') throw new Unavailable('The repository of this asset is offline; its edits cannot be read or saved now.', 'repository_unavailable');
    return sidecarPath(repo.path, a.asset_id);
  }

  private readSidecarOf(file: string): Sidecar | null {
    try {
      return readSidecar(file);
    } catch (e) {
      if (e instanceof SidecarUnreadable) {
        throw new Conflict(`The stored edit of this asset cannot be read (${e.message}); save a new one without "version" to replace it.`, 'sidecar_unreadable');
      }
      const code = (e as { code?: string }).code;
      throw new Unavailable(`The edit of this asset cannot be read from the repository folder (${code ?? 'read failed'}).`, 'repository_unavailable');
    }
  }

  getSidecar(actor: Actor, assetId: string) {
    const a = this.own(actor, assetId);
    const sidecar = this.readSidecarOf(this.sidecarFile(a));
    return { asset_id: a.asset_id, exists: sidecar !== null, sidecar };
  }

  saveSidecar(actor: Actor, assetId: string, input: SidecarInput) {
    const a = this.editable(actor, assetId);
    if (input.asset_id !== undefined && input.asset_id.toLowerCase() !== a.asset_id) {
      throw new Invalid('The sidecar belongs to another asset.', [{ field: 'body.asset_id', message: 'must be the asset of the path' }]);
    }
    const file = this.sidecarFile(a);
    let current: Sidecar | null;
    try {
      current = this.readSidecarOf(file);
    } catch (e) {
      if (input.version !== undefined || !(e instanceof Conflict)) throw e;
      current = null; // unreadable, and the client asked to overwrite
    }
    const currentVersion = current?.version ?? 0;
    if (input.version !== undefined && input.version !== currentVersion) {
      throw new Conflict(`The edit was changed meanwhile: it is at version ${currentVersion}, this save is based on version ${input.version}. Reload it and save again.`, 'sidecar_version_conflict');
    }
    const sidecar: Sidecar = {
      asset_id: a.asset_id,
      version: currentVersion + 1,
      updated_at: new Date().toISOString(),
      source: {
        file_size: a.file_size,
        hash: a.hash,
        width: a.width,
        height: a.height,
        mime_type: a.mime_type,
        original_filename: a.original_filename,
        storage_path: a.storage_path,
      },
      adjustments: input.adjustments,
      canvas: input.canvas ?? null,
      layers: input.layers ?? [],
    };
    try {
      writeSidecar(file, sidecar);
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw new Unavailable(`The edit could not be saved in the repository folder (${code ?? 'write failed'}).`, 'sidecar_write_failed');
    }
    return { asset_id: a.asset_id, exists: true, sidecar };
  }
}

/**
 * Public links to an album or a selection of one's own assets (links.routes.ts, public-links.routes.ts).
 *
 * Rules (Hearth's decisions; the contract has no sharing):
 * - Only one's own album (a member's album: 403 `album_read_only`; anyone else's: 404, both naming
 *   `body.album_id`) or one's own assets (404 / 403 naming `body.asset_ids.<i>`). Exactly one of the
 *   two: else 422 `link_target`. An album link shows the maker's own photos in the album, as the
 *   album is when the link is opened (contributors shared theirs with the album's members, not with
 *   the public); a selection shows the assets chosen. Nothing in anyone's Trash is ever shown.
 * - `expires_at` must be in the future (422 `expiry_in_past` naming `body.expires_at`); null: never.
 *   `allow_download` (default true) allows the originals and the zip; thumbnails and the viewer's
 *   large thumbnail are always allowed. A password is optional (4–200 characters).
 * - The key is shown once, in createShareLink's answer (`key`); the catalog keeps its SHA-256 only.
 * - The public side answers 404 `share_link_not_found` with the same words for a key that never
 *   existed, an expired link and a revoked one: a visitor never learns which. A password link needs
 *   its link token (unlockSharedLink) on every other public operation (header `X-Link-Token` or
 *   query `lt`, so <img> URLs work): without it 401 `link_locked`. Wrong passwords are counted per
 *   link and address: after 5 within 15 minutes that address waits 5 minutes (429 with Retry-After,
 *   even for the right password); every address together may try 50 times in 15 minutes.
 * - Public answers carry what is needed to show the photos and nothing else: per-link photo ids
 *   (link-secrets.ts), type, size, capture time, file name; never asset or owner ids, members'
 *   names, paths, places or descriptions.
 */
import type { Access, LinkScope, PermittedAssetId } from '../../platform/access/index.ts';
import { hashPassword, verifyPassword } from '../../platform/crypto/passwords.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { displayFileName } from '../../platform/http/display-names.ts';
import { DomainError, Forbidden, Invalid, NotFound } from '../../platform/http/errors.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import { AssetsStore } from '../assets/index.ts';
import { keyHash, LinkSecrets, newLinkKey } from './link-secrets.ts';
import { ShareLinksStore, type ShareLinkListRow, type ShareLinkRow } from './links.store.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The files of assets the access layer permitted (features/assets' AssetsService). */
export interface LinkFiles {
  thumbnailOf(id: PermittedAssetId, size: 'small' | 'medium' | 'large'): Promise<FileRefLike>;
  originalOf(id: PermittedAssetId): FileRefLike;
  videoOf(id: PermittedAssetId): FileRefLike;
  zipOf(ids: PermittedAssetId[], name: string, fieldOf: (i: number) => string, onStreamError?: (e: Error) => void): { stream: ReadableStream<Uint8Array>; contentType: string; name: string; size: number };
}
export interface FileRefLike {
  path: string;
  contentType: string;
  etag: string;
  name: string;
}

export interface NewLink {
  album_id?: number | undefined;
  asset_ids?: string[] | undefined;
  title?: string | null | undefined;
  expires_at?: string | null | undefined;
  password?: string | null | undefined;
  allow_download?: boolean | undefined;
}

export interface LinkPatch {
  title?: string | null | undefined;
  expires_at?: string | null | undefined;
  password?: string | null | undefined;
  allow_download?: boolean | undefined;
  revoked?: boolean | undefined;
}

/** The public side's one refusal for unknown, expired and revoked links. */
const gone = () => new NotFound('No such link. It may have expired or been withdrawn.', 'share_link_not_found');

export class ShareLinksService {
  private readonly store: ShareLinksStore;
  private readonly assets: AssetsStore;
  private readonly secrets: LinkSecrets;
  readonly passwords = new FailureLimiter('share_link_password', { windowMs: 15 * 60_000, maxPerIp: 50, maxPerSubject: 5, lockoutMs: 5 * 60_000 });

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    private readonly files: LinkFiles,
    secret: Buffer,
  ) {
    this.store = new ShareLinksStore(db);
    this.assets = new AssetsStore(db);
    this.secrets = new LinkSecrets(secret);
  }

  // ------------------------------------------------------------------ the maker's side

  list(actor: Actor) {
    const links = this.store.list(actor.userId).map((r) => this.view(r, null));
    return { links, count: links.length };
  }

  async create(actor: Actor, input: NewLink) {
    const hasAlbum = input.album_id !== undefined;
    const hasAssets = input.asset_ids !== undefined;
    if (hasAlbum === hasAssets) {
      throw new Invalid('A link shares either one of your albums (album_id) or a selection of your photos (asset_ids).', [
        { field: 'body.album_id', message: 'give album_id or asset_ids, not both or neither', code: 'link_target' },
      ], 'link_target');
    }
    const expires = this.expiry(input.expires_at);
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    return this.db
      .transaction(() => {
        const album = hasAlbum ? this.access.require(actor, 'album', input.album_id!, 'own', 'body.album_id') : null;
        const assetIds = hasAssets ? this.access.requireAll(actor, 'asset', input.asset_ids!.map((a) => a.toLowerCase()), 'own', (i) => `body.asset_ids.${i}`) : [];
        const { key, hash } = newLinkKey();
        const id = this.store.insert(
          { key_hash: hash, created_by: actor.userId, album_id: album, title: input.title ?? null, expires_at: expires, password_hash: passwordHash, allow_download: input.allow_download === false ? 0 : 1 },
          assetIds,
          Date.now(),
        );
        return this.view(this.store.listRow(id)!, key);
      })
      .immediate();
  }

  async update(actor: Actor, id: number, patch: LinkPatch) {
    this.access.require(actor, 'share_link', id, 'change', 'path.id');
    const fields: Parameters<ShareLinksStore['update']>[1] = {};
    if (patch.title !== undefined) fields.title = patch.title;
    if (patch.expires_at !== undefined) fields.expires_at = this.expiry(patch.expires_at);
    if (patch.password !== undefined) fields.password_hash = patch.password === null ? null : await hashPassword(patch.password);
    if (patch.allow_download !== undefined) fields.allow_download = patch.allow_download ? 1 : 0;
    if (patch.revoked !== undefined) fields.revoked_at = patch.revoked ? Date.now() : null;
    // Checked again after the password hash (a slow step): the link may have gone meanwhile.
    return this.db
      .transaction(() => {
        this.access.require(actor, 'share_link', id, 'change', 'path.id');
        this.store.update(id, fields, Date.now());
        return this.view(this.store.listRow(id)!, null);
      })
      .immediate();
  }

  delete(actor: Actor, id: number) {
    this.store.delete(this.access.require(actor, 'share_link', id, 'change', 'path.id'));
    return { message: 'The link is deleted: it no longer opens.' };
  }

  private expiry(value: string | null | undefined): number | null {
    if (value === null || value === undefined) return null;
    const at = Date.parse(value);
    if (at <= Date.now()) {
      throw new Invalid('The expiry must be in the future.', [{ field: 'body.expires_at', message: 'is in the past', code: 'expiry_in_past' }], 'expiry_in_past');
    }
    return at;
  }

  private view(r: ShareLinkListRow, key: string | null) {
    const now = Date.now();
    return {
      link_id: r.link_id,
      key,
      kind: r.album_id === null ? ('selection' as const) : ('album' as const),
      album_id: r.album_id,
      album_name: r.album_name,
      title: r.title,
      asset_count: r.asset_count,
      expires_at: iso(r.expires_at),
      has_password: r.password_hash !== null,
      allow_download: r.allow_download === 1,
      revoked_at: iso(r.revoked_at),
      status: r.revoked_at !== null ? ('revoked' as const) : r.expires_at !== null && r.expires_at <= now ? ('expired' as const) : ('active' as const),
      created_at: iso(r.created_at)!,
      updated_at: iso(r.updated_at)!,
    };
  }

  // ------------------------------------------------------------------ the public side

  /** The live link of a key, or the one 404 for unknown, expired and revoked links. */
  private resolve(key: string): ShareLinkRow {
    const l = this.store.byKeyHash(keyHash(key));
    if (!l || l.revoked_at !== null || (l.expires_at !== null && l.expires_at <= Date.now())) throw gone();
    return l;
  }

  /** The link, when the visitor may look inside: no password, or a live token of it. */
  private opened(key: string, token: string | undefined): ShareLinkRow {
    const l = this.resolve(key);
    if (l.password_hash !== null && !(token && this.secrets.verify(token, l.link_id, l.updated_at))) {
      throw new DomainError(401, 'link_locked', 'This link has a password: unlock it first.');
    }
    return l;
  }

  private scope(l: ShareLinkRow): LinkScope {
    return { linkId: l.link_id, createdBy: l.created_by, albumId: l.album_id };
  }

  private title(l: ShareLinkRow, count: number): string {
    if (l.title) return l.title;
    if (l.album_id !== null) {
      const name = this.db.prepare('SELECT album_name FROM albums WHERE album_id = ?').pluck().get(l.album_id) as string | undefined;
      if (name) return name;
    }
    return `${count} ${count === 1 ? 'photo' : 'photos'}`;
  }

  describe(key: string) {
    const l = this.resolve(key);
    const count = this.store.assetIds(l).length;
    const token = l.password_hash === null ? this.secrets.token(l.link_id, l.updated_at) : null;
    return {
      title: this.title(l, count),
      asset_count: count,
      needs_password: l.password_hash !== null,
      allow_download: l.allow_download === 1,
      expires_at: iso(l.expires_at),
      link_token: token?.token ?? null,
      link_token_expires_at: token?.expires_at ?? null,
    };
  }

  async unlock(key: string, password: string, ip: string) {
    const l = this.resolve(key);
    const subject = `${l.link_id}@${ip}`;
    this.passwords.check(ip, subject);
    if (l.password_hash !== null && !(await verifyPassword(password, l.password_hash))) {
      this.passwords.fail(ip, subject);
      throw new DomainError(403, 'wrong_password', 'That is not the password of this link.', { errors: [{ field: 'body.password', message: 'does not match' }] });
    }
    this.passwords.succeed(subject);
    const t = this.secrets.token(l.link_id, l.updated_at);
    return { link_token: t.token, expires_at: t.expires_at };
  }

  listAssets(key: string, token: string | undefined) {
    const l = this.opened(key, token);
    const ids = this.store.assetIds(l);
    const rows = new Map(this.assets.byIds(this.access.permittedThroughLink(this.scope(l), ids)).map((r) => [r.asset_id, r]));
    const photos = ids
      .map((id) => rows.get(id))
      .filter((r) => r !== undefined)
      .map((r) => {
        const photo_id = this.secrets.photoId(l.link_id, r.asset_id);
        return {
          photo_id,
          type: r.type,
          mime_type: r.mime_type,
          width: r.width,
          height: r.height,
          duration: r.duration,
          taken_time: iso(r.taken_time),
          capture_offset_minutes: r.capture_offset_minutes,
          file_name: displayFileName(r.original_filename),
        };
      });
    return { title: this.title(l, photos.length), allow_download: l.allow_download === 1, photos, count: photos.length };
  }

  /** One photo of an opened link, checked by the access layer; 404 `photo_not_found` otherwise. */
  private photo(l: ShareLinkRow, photoId: string): PermittedAssetId {
    const assetId = this.secrets.assetId(l.link_id, photoId);
    const [ok] = assetId ? this.access.permittedThroughLink(this.scope(l), [assetId]) : [];
    if (!ok) throw new DomainError(404, 'photo_not_found', 'This link shows no such photo.', { errors: [{ field: 'path.photoId', message: 'not a photo of this link' }] });
    return ok;
  }

  thumbnail(key: string, token: string | undefined, photoId: string, size: 'small' | 'medium' | 'large') {
    const l = this.opened(key, token);
    return this.files.thumbnailOf(this.photo(l, photoId), size);
  }

  /**
   * A video of the link, as the browser plays it (the web copy, or a motion photo's clip). Watching
   * is looking, not downloading: allowed like the viewer's large thumbnail, also when downloads are
   * off (a browser can save what it plays, as it can save a thumbnail; the original file and the zip
   * stay behind `allow_download`). Not a video: 404 `wrong_asset_type`.
   */
  video(key: string, token: string | undefined, photoId: string) {
    const l = this.opened(key, token);
    return this.files.videoOf(this.photo(l, photoId));
  }

  original(key: string, token: string | undefined, photoId: string) {
    const l = this.downloadable(key, token);
    return this.files.originalOf(this.photo(l, photoId));
  }

  zip(key: string, token: string | undefined, onStreamError?: (e: Error) => void) {
    const l = this.downloadable(key, token);
    const ids = this.access.permittedThroughLink(this.scope(l), this.store.assetIds(l));
    const title = this.title(l, ids.length).replace(/[^\p{L}\p{N} ._-]+/gu, '_').trim() || 'photos';
    try {
      return this.files.zipOf(ids, `${title}.zip`, () => 'path.key', onStreamError);
    } catch (e) {
      // The member's answer names the missing files and their ids; a visitor learns only that some are missing.
      if (e instanceof DomainError && e.code === 'original_missing') throw new DomainError(409, 'original_missing', 'Some files of this link are not available right now; try again later.');
      throw e;
    }
  }

  private downloadable(key: string, token: string | undefined): ShareLinkRow {
    const l = this.opened(key, token);
    if (l.allow_download !== 1) throw new Forbidden('This link lets you look at the photos but not download them.', 'download_not_allowed');
    return l;
  }
}

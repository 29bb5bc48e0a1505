/**
 * Albums: per-user, ordered membership, covers, species albums (see albums.routes.ts for the operations).
 *
 * Rules (the contract's and Hearth's decisions where it is silent):
 * - An album belongs to its creator (`user_id`), who may share it with members (members.service.ts):
 *   viewers read it, contributors also add their own assets and take out what they added. Someone
 *   who cannot read an album gets 404 (`album_not_found`, naming the path field) exactly like an
 *   album that does not exist; a member who can read it but not do this gets 403 `album_read_only`.
 *   Administrators get no exception. Only one's own assets can be added: another user's asset
 *   answers 404 `asset_not_found` naming `path.assetId` (`path.id` on the asset-scoped route), or 403
 *   `asset_read_only` when it is shared with the caller (its owner decides who sees it).
 * - listAlbums lists the albums one owns and those one is a member of (`role`, `shared`, `owner`);
 *   every asset entry says who added it (`added_by`), and likes and ratings are the reader's own.
 *   Members never see what is in someone else's Trash.
 * - Membership is ordered: positions 0..n-1 without gaps over every member (Trash included). Adding
 *   appends, or inserts at `position` (0..n) and shifts the rest back; removing closes the gap;
 *   moving (updateAlbumAssetPosition) shifts the members in between. A position outside the range
 *   is 422 `position_out_of_range` naming `body.position` (not clamped: a client asking for a place
 *   that does not exist has a stale view, and should learn it rather than see the photo elsewhere).
 * - Adding an asset that is already a member changes nothing and answers 200 with a message saying
 *   so (idempotent: a retried request or a double click is not an error). Use
 *   updateAlbumAssetPosition to move it.
 * - An asset in the Trash cannot be added (409 `asset_in_trash`: restore it first). An asset that
 *   goes to the Trash stays a member, keeps its place and comes back with it when restored; until
 *   then it is not counted in `asset_count`, is not a displayed cover and is left out of
 *   listAlbumAssets unless `include_deleted=true`. Positions stay album positions, so a listing
 *   without the Trash may skip a number.
 * - Cover: the owner's choice via updateAlbum `cover_asset_id` (null clears it); it must be a member
 *   not in the Trash, else 422 `cover_not_in_album` naming `body.cover_asset_id`. Removing the cover
 *   from the album clears it. `display_cover_asset_id` is the cover unless it is in the Trash, else
 *   the first member by position not in the Trash, else null.
 * - `updated_at` moves on every change to the album, its membership or its order; listAlbums shows
 *   the most recently changed first. Album names need not be unique (two "Birthday" albums of different
 *   years are normal); the web UI asks before creating a second one of a name the member already has.
 * - A description that is blank after trimming is stored as null: an emptied field means "none".
 * - `repository_id` (listAlbums, getAlbum, listAlbumAssets) scopes to that repository: listAlbums
 *   returns only albums holding at least one visible asset of it, and counts, the displayed cover
 *   and the asset listing consider only its assets. An unknown repository is 404
 *   `repository_not_found` naming `query.repository_id`.
 * - Deleting an album never deletes, moves or trashes its assets.
 * - Species (`bio` albums): adding a PHOTO to a bio album, or turning an album into a bio album,
 *   queues an `indexing.index-asset` job with task `bioclip` for each photo without species
 *   predictions (not in the Trash, not failed). queueAlbumSpeciesRecognition does the same on
 *   request for the whole album; it is 409 `album_not_bio` for a regular album and 409
 *   `species_disabled` when species recognition is turned off in the ML settings (then the
 *   automatic queuing is skipped silently: the photo is still added). One job per photo at a time
 *   (the job's unique key). Without an installed species model the jobs wait visibly as `scheduled`
 *   with the reason (features/indexing), and run once a model is installed.
 */
import type { SettingsStore } from '../../config/settings.ts';
import type { Access, Permission } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, DomainError, Invalid } from '../../platform/http/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { AssetsStore, MarksStore, loadAssetExtras, withReaderMarks } from '../assets/index.ts';
import { MembersStore } from '../users/index.ts';
import { isTaskEnabled, type IndexerRegistry, indexAsset } from '../indexing/index.ts';
import { AlbumsStore, type AlbumRow, type AlbumType } from './albums.store.ts';
import { toAlbum, toAlbumAsset, toAlbumOfAsset, type Album } from './albums.view.ts';
import type { RepositoryLookup } from '../repositories/index.ts';

export interface NewAlbum {
  album_name: string;
  album_type?: AlbumType | undefined;
  description?: string | null | undefined;
}

export interface AlbumPatch {
  album_name?: string | undefined;
  album_type?: AlbumType | undefined;
  description?: string | null | undefined;
  cover_asset_id?: string | null | undefined;
}

/** Which request fields carry the album and asset ids (they differ between the two add routes). */
export interface IdFields {
  album: string;
  asset: string;
}
const ALBUM_SCOPED: IdFields = { album: 'path.id', asset: 'path.assetId' };

/**
 * An emptied description field is "no description": stored as null like a cleared one, so readers
 * see one empty state, not two (the schema has already trimmed it).
 */
function descriptionOf(text: string | null | undefined): string | null {
  return text ? text : null;
}

function notFound(message: string, code: string, field: string): DomainError {
  return new DomainError(404, code, message, { errors: [{ field, message: 'not found' }] });
}

export class AlbumsService {
  private readonly store: AlbumsStore;
  private readonly assetsStore: AssetsStore;
  private readonly marks: MarksStore;
  private readonly household: MembersStore;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    private readonly jobs: JobQueue,
    private readonly settings: Pick<SettingsStore, 'section'>,
    private readonly indexers: Pick<IndexerRegistry, 'available'>,
    private readonly repositories: RepositoryLookup,
  ) {
    this.store = new AlbumsStore(db);
    this.assetsStore = new AssetsStore(db);
    this.marks = new MarksStore(db);
    this.household = new MembersStore(db);
  }

  list(actor: Actor, q: { limit: number; offset: number; repository_id?: string | undefined }) {
    const repo = this.repo(q.repository_id);
    const { rows, total } = this.store.list(actor.userId, repo, q.limit, q.offset);
    const owners = this.household.byIds(rows.map((r) => r.owner_id));
    return { albums: rows.map((r) => toAlbum(r, owners.get(r.owner_id))), limit: q.limit, offset: q.offset, total };
  }

  create(actor: Actor, input: NewAlbum): Album {
    const id = this.store.insert(
      { owner_id: actor.userId, album_name: input.album_name, album_type: input.album_type ?? 'regular', description: descriptionOf(input.description) },
      Date.now(),
    );
    return this.view(actor, id, null);
  }

  get(actor: Actor, albumId: number, repositoryId?: string): Album {
    const repo = this.repo(repositoryId);
    this.own(actor, albumId);
    return this.view(actor, albumId, repo);
  }

  update(actor: Actor, albumId: number, patch: AlbumPatch): Album {
    this.db
      .transaction(() => {
        const album = this.own(actor, albumId, 'change');
        const fields: Parameters<AlbumsStore['update']>[1] = {};
        if (patch.album_name !== undefined) fields.album_name = patch.album_name;
        if (patch.description !== undefined) fields.description = descriptionOf(patch.description);
        if (patch.album_type !== undefined) fields.album_type = patch.album_type;
        if (patch.cover_asset_id !== undefined) {
          if (patch.cover_asset_id !== null) {
            const [permitted] = this.access.permitted(actor, 'asset', [patch.cover_asset_id], 'read');
            const a = permitted === undefined ? undefined : this.assetsStore.byId(permitted);
            const member = this.store.positionOf(albumId, patch.cover_asset_id) !== undefined;
            if (!a || !member || a.is_deleted) {
              throw new Invalid(
                'The cover must be a photo or video of this album that is not in the Trash.',
                [{ field: 'body.cover_asset_id', message: 'not an asset of this album (or it is in the Trash)' }],
                'cover_not_in_album',
              );
            }
          }
          fields.cover_asset_id = patch.cover_asset_id;
        }
        this.store.update(albumId, fields, Date.now());
        if (album.album_type !== 'bio' && patch.album_type === 'bio' && this.speciesEnabled()) {
          this.enqueueSpecies(actor, this.store.photosLackingSpecies(albumId));
        }
      })
      .immediate();
    return this.view(actor, albumId, null);
  }

  delete(actor: Actor, albumId: number) {
    const album = this.own(actor, albumId, 'change');
    const members = this.store.memberCount(albumId);
    this.store.delete(albumId);
    return {
      message: `Deleted the album "${album.album_name}". Its ${members} ${members === 1 ? 'asset stays' : 'assets stay'} in your library.`,
    };
  }

  assets(actor: Actor, albumId: number, q: { repository_id?: string | undefined; include_deleted: boolean }) {
    const repo = this.repo(q.repository_id);
    this.own(actor, albumId);
    // Everyone, the album's owner too, sees the entries the access layer lets them read: their own
    // (their Trash included when asked), and others' not in anyone's Trash.
    const all = this.store.members(albumId, { includeDeleted: q.include_deleted, repo });
    const readable = new Set<string>(this.access.permitted(actor, 'asset', all.map((r) => r.asset_id), 'read'));
    const rows = all.filter((r) => readable.has(r.asset_id));
    const extras = loadAssetExtras(this.assetsStore, rows.map((r) => r.asset_id));
    const known = this.household.byIds(rows.flatMap((r) => (r.added_by === null ? [] : [r.added_by])));
    const assets = withReaderMarks(this.marks, actor.userId, rows.map((r) => toAlbumAsset(r, extras.get(r.asset_id), r.added_by === null ? null : (known.get(r.added_by) ?? null))));
    return { album_id: albumId, assets, count: assets.length };
  }

  /**
   * Adds one of the caller's own assets (the owner's, or a contributor's): at the end, or at
   * `position` (0..n) shifting the rest back. Someone else's asset shared with the caller cannot be
   * passed on into an album (403 `asset_read_only`): its owner decides who sees it.
   */
  addAsset(actor: Actor, albumId: number, assetId: string, position?: number, fields: IdFields = ALBUM_SCOPED) {
    return this.db
      .transaction(() => {
        const album = this.own(actor, albumId, 'contribute', fields.album);
        const asset = this.assetsStore.byId(this.access.require(actor, 'asset', assetId, 'own', fields.asset));
        if (!asset) throw notFound('No such asset.', 'asset_not_found', fields.asset);
        const existing = this.store.positionOf(albumId, assetId);
        if (existing !== undefined) {
          return { message: `Already in the album "${album.album_name}"; nothing changed.` };
        }
        if (asset.is_deleted) throw new Conflict('This asset is in the Trash: restore it before adding it to an album.', 'asset_in_trash');
        this.store.normalise(albumId);
        const n = this.store.memberCount(albumId);
        const at = position ?? n;
        if (at > n) throw this.outOfRange(n);
        const now = Date.now();
        this.store.insertAt(albumId, assetId, at, now, actor.userId);
        this.store.touch(albumId, now);
        let note = '';
        if (album.album_type === 'bio' && asset.type === 'PHOTO' && asset.state !== 'failed' && this.speciesEnabled() && !this.store.hasSpecies(assetId)) {
          this.enqueueSpecies(actor, [assetId]);
          note = ' Species recognition is queued for it.';
        }
        return { message: `Added to the album "${album.album_name}" at position ${at}.${note}` };
      })
      .immediate();
  }

  /** The owner takes out any entry; a contributor only the ones they added (403 `album_read_only` otherwise). */
  removeAsset(actor: Actor, albumId: number, assetId: string) {
    return this.db
      .transaction(() => {
        const album = this.own(actor, albumId, 'contribute');
        this.store.normalise(albumId);
        const at = this.member(albumId, assetId);
        if (album.owner_id !== actor.userId && this.store.addedBy(albumId, assetId) !== actor.userId) {
          throw new DomainError(403, 'album_read_only', 'Contributors take out only the photos they added.', { errors: [{ field: 'path.assetId', message: 'added by someone else' }] });
        }
        this.store.removeAt(albumId, assetId, at);
        const now = Date.now();
        if (album.cover_asset_id === assetId) this.store.update(albumId, { cover_asset_id: null }, now);
        else this.store.touch(albumId, now);
        return { message: `Removed from the album "${album.album_name}"; the asset stays in your library.` };
      })
      .immediate();
  }

  moveAsset(actor: Actor, albumId: number, assetId: string, position: number) {
    return this.db
      .transaction(() => {
        const album = this.own(actor, albumId, 'change');
        this.store.normalise(albumId);
        const from = this.member(albumId, assetId);
        const n = this.store.memberCount(albumId);
        if (position > n - 1) throw this.outOfRange(n - 1);
        if (from === position) return { message: `Already at position ${position}; nothing changed.` };
        this.store.move(albumId, assetId, from, position);
        this.store.touch(albumId, Date.now());
        return { message: `Moved from position ${from} to ${position} in the album "${album.album_name}".` };
      })
      .immediate();
  }

  queueSpecies(actor: Actor, albumId: number) {
    return this.db
      .transaction(() => {
        const album = this.own(actor, albumId, 'change');
        if (album.album_type !== 'bio') {
          throw new Conflict('Species recognition runs on bio albums only: make this album a bio album first (updateAlbum album_type "bio").', 'album_not_bio');
        }
        if (!this.speciesEnabled()) throw new Conflict('Species recognition is turned off in the ML settings.', 'species_disabled');
        const ids = this.store.photosLackingSpecies(albumId);
        const inserted = this.enqueueSpecies(actor, ids);
        const waiting = ids.length - inserted;
        let message = ids.length
          ? `Queued species recognition for ${ids.length} ${ids.length === 1 ? 'photo' : 'photos'}` +
            (waiting ? ` (${waiting} already waiting in the queue).` : '.')
          : 'Every photo in this album already has species predictions: nothing to queue.';
        if (ids.length && !this.indexers.available('bioclip')) message += ' No species model is installed yet: the jobs wait until one is.';
        return { message, queued_assets: ids.length, status: 'queued' as const };
      })
      .immediate();
  }

  albumsOfAsset(actor: Actor, assetId: string) {
    this.access.require(actor, 'asset', assetId, 'read', 'path.id');
    const rows = this.store.albumsOfAsset(actor.userId, assetId);
    const owners = this.household.byIds(rows.map((r) => r.owner_id));
    const albums = rows.map((r) => toAlbumOfAsset(r, owners.get(r.owner_id)));
    return { albums, asset_id: assetId, count: albums.length };
  }

  /** The album if the caller may `permission` it, or 404 naming the field (as if it did not exist). */
  private own(actor: Actor, albumId: number, permission: Permission = 'read', field = 'path.id'): AlbumRow {
    const album = this.store.byId(this.access.require(actor, 'album', albumId, permission, field));
    if (!album) throw notFound('No such album.', 'album_not_found', field);
    return album;
  }

  private member(albumId: number, assetId: string): number {
    const at = this.store.positionOf(albumId, assetId);
    if (at === undefined) throw notFound('This asset is not in the album.', 'asset_not_in_album', 'path.assetId');
    return at;
  }

  private outOfRange(max: number): Invalid {
    return new Invalid(
      `The position must be between 0 and ${max}.`,
      [{ field: 'body.position', message: `must be between 0 and ${max}` }],
      'position_out_of_range',
    );
  }

  private repo(repositoryId: string | undefined): string | null {
    if (repositoryId === undefined) return null;
    this.repositories.require(repositoryId, 'query.repository_id');
    return repositoryId;
  }

  private view(actor: Actor, albumId: number, repo: string | null): Album {
    const row = this.store.listRow(albumId, actor.userId, repo)!;
    return toAlbum(row, this.household.byIds([row.owner_id]).get(row.owner_id));
  }

  private speciesEnabled(): boolean {
    return isTaskEnabled(this.settings, 'bioclip');
  }

  /** Queues species jobs (the queue's unique key skips photos already waiting); returns how many are new. */
  private enqueueSpecies(actor: Actor, assetIds: readonly string[]): number {
    if (!assetIds.length) return 0;
    const results = this.jobs.enqueueMany(
      indexAsset,
      assetIds.map((asset_id) => ({ args: { asset_id, task: 'bioclip' as const }, opts: { ownerId: actor.userId } })),
    );
    return results.filter((r) => r.inserted).length;
  }
}

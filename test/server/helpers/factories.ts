/**
 * Test factories for the catalog: repositories, assets, media items, stacks, albums, tags and species
 * predictions, written through the real stores (the same SQL the services run), for states the API
 * cannot produce quickly or at all: thousands of synthetic assets, a repository that is not mounted,
 * exact capture times, machine tags, species predictions (no classifier runs in tests).
 * Tests that can reach a state through the HTTP API should do that instead.
 *
 * Where no store writes a table yet (species predictions) or removes a row yet (asset rows: nothing
 * deletes them today, the Trash keeps everything), the SQL is here, in one place.
 */
import { forSystem } from '../../../server/src/platform/access/index.ts';
import crypto from 'node:crypto';
import type { Db } from '../../../server/src/platform/db/connection.ts';
import { AssetsStore, type AssetRow } from '../../../server/src/features/assets/assets.store.ts';
import { AlbumsStore } from '../../../server/src/features/albums/albums.store.ts';
import { StacksStore, type StackRow } from '../../../server/src/features/stacks/stacks.store.ts';
import { TagsStore, type TagSource } from '../../../server/src/features/tags/tags.store.ts';
import { RepositoriesStore, type RepositoryStatus } from '../../../server/src/features/repositories/repositories.store.ts';

/** An asset to write: who owns it and where it is; every other column may be given. */
export type AssetFields = Partial<Omit<AssetRow, 'asset_id' | 'created_at' | 'updated_at'>> &
  Pick<AssetRow, 'owner_id' | 'repository_id'> & { asset_id?: string; created_at?: number };

export class CatalogFactory {
  private readonly assets: AssetsStore;
  private readonly albums: AlbumsStore;
  private readonly stacks: StacksStore;
  private readonly tags: TagsStore;
  private readonly repositories: RepositoriesStore;

  constructor(
    readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.assets = new AssetsStore(db);
    this.albums = new AlbumsStore(db);
    this.stacks = new StacksStore(db);
    this.tags = new TagsStore(db);
    this.repositories = new RepositoriesStore(db);
  }

  /**
   * A regular repository row. `status: 'offline'` keeps the start-up and periodic scans away from it,
   * so synthetic assets in it stay exactly as written.
   */
  repository(r: { repository_id?: string; name: string; path: string; status?: RepositoryStatus }): string {
    const id = r.repository_id ?? crypto.randomUUID();
    const at = this.now();
    this.repositories.insert({ repository_id: id, name: r.name, path: r.path, role: 'regular', default_owner_id: null, created_at: at, updated_at: at });
    if (r.status && r.status !== 'active') this.repositories.setStatus(id, r.status, null, at);
    return id;
  }

  /**
   * An asset row as ingest writes it, then the given columns (ready by default, as if processed).
   * Defaults: a JPEG photo named after its id, 1000 bytes, uploaded now.
   */
  asset(a: AssetFields): string {
    const id = a.asset_id ?? crypto.randomUUID();
    const at = a.created_at ?? this.now();
    const name = a.original_filename ?? `${id}.jpg`;
    this.assets.insert(
      {
        asset_id: id,
        owner_id: a.owner_id,
        repository_id: a.repository_id,
        storage_path: a.storage_path ?? name,
        type: a.type ?? 'PHOTO',
        original_filename: name,
        mime_type: a.mime_type ?? 'image/jpeg',
        file_size: a.file_size ?? 1000,
        hash: a.hash ?? null,
        file_mtime: a.file_mtime ?? null,
      },
      at,
    );
    const rest: Partial<AssetRow> = { state: 'ready', status: '[]', upload_time: at, ...a };
    for (const k of ['asset_id', 'owner_id', 'repository_id', 'storage_path', 'type', 'original_filename', 'mime_type', 'file_size', 'hash', 'file_mtime', 'created_at'] as const) delete rest[k];
    this.assets.update(id, rest, at);
    return id;
  }

  /** Changes columns of an asset row as the pipeline and the services do (the Trash, likes, metadata). */
  change(assetId: string, fields: Partial<Omit<AssetRow, 'asset_id' | 'created_at'>>): void {
    this.assets.update(assetId, fields, this.now());
  }

  /** Removes an asset row (its component goes with it), as emptying the Trash will. */
  removeAsset(assetId: string): void {
    this.db.prepare('DELETE FROM assets WHERE asset_id = ?').run(assetId);
  }

  /** Puts an asset into a media item at `position` (moving it out of any other item), as grouping does. */
  component(mediaItemId: string, assetId: string, position: number, relation: string): void {
    this.assets.setComponent(mediaItemId, assetId, position, relation);
  }

  /** Removes the media items left without files (their stack memberships go with them). */
  pruneEmptyMediaItems(): void {
    this.assets.pruneEmptyMediaItems();
  }

  /** A media item made of `components` in order (the first is the primary), linked from each asset. */
  mediaItem(ownerId: number, kind: string, components: { asset_id: string; relation: string }[], mediaItemId: string = crypto.randomUUID()): string {
    const at = this.now();
    this.assets.createMediaItem(mediaItemId, ownerId, kind, components[0]!.asset_id, at);
    components.forEach((c, i) => {
      this.assets.setComponent(mediaItemId, c.asset_id, i, c.relation);
      this.assets.update(c.asset_id, { media_item_id: mediaItemId }, at);
    });
    return mediaItemId;
  }

  /** A stack of media items, in order. */
  stack(s: { owner_id: number; stack_kind: StackRow['stack_kind']; members: readonly string[]; stack_id?: string; group_key?: string | null; cover_media_item_id?: string | null }): string {
    const id = s.stack_id ?? crypto.randomUUID();
    const at = this.now();
    this.stacks.create({ stack_id: id, owner_id: s.owner_id, stack_kind: s.stack_kind, group_key: s.group_key ?? null, cover_media_item_id: s.cover_media_item_id ?? null, created_at: at, updated_at: at });
    this.stacks.append(id, s.members, at);
    return id;
  }

  /** Takes an item out of its stack (the stack is left as it is, even with one member). */
  unstack(mediaItemId: string): void {
    this.stacks.removeMember(mediaItemId);
  }

  /** Chooses a stack's cover (null: its first member). */
  stackCover(stackId: string, mediaItemId: string | null): void {
    this.stacks.setCover(stackId, mediaItemId, this.now());
  }

  /** Deletes a stack (its items stay). */
  removeStack(stackId: string): void {
    this.stacks.remove(stackId);
  }

  album(ownerId: number, name: string): number {
    return this.albums.insert({ owner_id: ownerId, album_name: name, album_type: 'regular', description: null }, this.now());
  }

  /** Puts an asset into an album at `position` (default: the end), added at `addedAt`. */
  albumMember(albumId: number, assetId: string, opts: { position?: number; addedAt?: number } = {}): void {
    this.albums.insertAt(albumId, assetId, opts.position ?? this.albums.memberCount(albumId), opts.addedAt ?? this.now());
  }

  /** The tag of that name (created if needed). */
  tag(name: string): number {
    return this.tags.resolve(name, this.now());
  }

  /** Links a tag (by name) to an asset with a source and confidence, as a classifier or a person would. */
  tagAsset(assetId: string, name: string, source: TagSource = 'manual', confidence = 1, at = this.now()): number {
    const tagId = this.tag(name);
    this.tags.upsertLink(forSystem('asset', assetId), tagId, source, confidence, at); // a factory writes as the catalog does
    return tagId;
  }

  /** A species prediction, as the species classifier writes it (no store writes them yet). */
  species(assetId: string, label: string, score: number, modelId = 'test'): void {
    this.db
      .prepare('INSERT INTO species_predictions (asset_id, label, score, model_id, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(assetId, label, score, modelId, this.now());
  }
}

/** Factories over a server's catalog (or any opened catalog). */
export function catalogOf(db: Db, now?: () => number): CatalogFactory {
  return new CatalogFactory(db, now);
}

/** SQL for assets and media items. No rules here. */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import type { CaptureColumns, KeptFacts, SourceFacts } from './fact-precedence.ts';
import type { PermittedAssetId } from '../../platform/access/index.ts';

/** An asset's row; the capture columns of migration 0026 are described in fact-precedence.ts. */
export interface AssetRow extends CaptureColumns {
  asset_id: string;
  owner_id: number;
  repository_id: string;
  storage_path: string;
  type: 'PHOTO' | 'VIDEO' | 'AUDIO';
  original_filename: string;
  mime_type: string;
  file_size: number;
  hash: string | null;
  file_mtime: number | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  taken_time: number | null;
  capture_offset_minutes: number | null;
  upload_time: number;
  gps_latitude: number | null;
  gps_longitude: number | null;
  /** Geohashes of the position (migration 0023, features/places/geohash.ts): null until computed, '' for no place. */
  geohash5?: string | null;
  geohash7?: string | null;
  liked: number;
  rating: number;
  description: string | null;
  is_deleted: number;
  deleted_at: number | null;
  /** Why it is in the Trash (migration 0008): a person's deletion, or its file went missing. */
  deleted_reason: 'user' | 'missing' | null;
  content_id: string | null;
  phash: string | null;
  /** Nine window pHashes of a photo, 144 hex digits (adapters/media/phash.ts); null for videos and until computed. */
  phash_windows: string | null;
  /** The recipe of `phash` and `phash_windows` (adapters/media/phash.ts PHASH_VERSION, migration 0029). */
  phash_version: number;
  specific_metadata: string | null;
  exif_raw: string | null;
  state: 'pending' | 'processing' | 'ready' | 'failed';
  status: string;
  last_error: string | null;
  media_item_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface TagLinkRow {
  tag_id: number;
  tag_name: string;
  source: string;
  confidence: number;
}

export interface AssetAlbumRow {
  album_id: number;
  album_name: string;
  added_at: number;
  position: number;
}

export interface SpeciesRow {
  asset_id: string;
  label: string;
  score: number;
}

/** Where an asset's media item sits in a stack. */
export interface AssetStackRow {
  asset_id: string;
  stack_id: string;
  stack_kind: string;
  stack_size: number;
  /** 1 when the asset's media item is the stack's cover (the chosen one, else the first by position). */
  is_cover: number;
}

export interface MediaItemRow {
  media_item_id: string;
  media_kind: string;
  primary_asset_id: string;
}

/** How a source said one file belongs with another (migration 0036): an edited copy, or another file of the same capture. */
export type SaidAs = 'edit' | 'companion';

export interface SourcePairRow {
  asset_id: string;
  partner_id: string;
  said_as: SaidAs;
}

export interface ComponentRow {
  asset_id: string;
  position: number;
  relation: string;
}

export type NewAsset = Pick<
  AssetRow,
  'asset_id' | 'owner_id' | 'repository_id' | 'storage_path' | 'type' | 'original_filename' | 'mime_type' | 'file_size' | 'hash' | 'file_mtime'
> &
  Partial<Pick<AssetRow, 'file_modified_time' | 'file_modified_offset_minutes'>>;

/**
 * The statements of the ingest path (by id, path and hash, insert, update, media items, receipts) are kept
 * prepared per connection (platform/db/prepared.ts): a file's ingest runs each a few times, and preparing
 * one against the assets table (its triggers are compiled into every write) cost more than running it.
 */
export class AssetsStore {
  constructor(private readonly db: Db) {}

  /** The named place of the asset's position (features/places names the cells), or undefined. */
  placeOf(id: string): { city: string | null; region: string | null; country: string; country_code: string; geohash: string } | undefined {
    return prepared(
      this.db,
      `SELECT c.city, c.region, c.country, c.country_code, c.geohash7 AS geohash FROM assets a JOIN place_cells c ON c.geohash7 = a.geohash7
         WHERE a.asset_id = ? AND c.country IS NOT NULL`,
    )
      .get(id) as { city: string | null; region: string | null; country: string; country_code: string; geohash: string } | undefined;
  }

  byId(id: PermittedAssetId): AssetRow | undefined {
    return prepared(this.db, 'SELECT * FROM assets WHERE asset_id = ?').get(id) as AssetRow | undefined;
  }

  byPath(repositoryId: string, storagePath: string): AssetRow | undefined {
    return prepared(this.db, 'SELECT * FROM assets WHERE repository_id = ? AND storage_path = ?').get(repositoryId, storagePath) as AssetRow | undefined;
  }

  byHash(repositoryId: string, hash: string, size: number): AssetRow[] {
    return prepared(this.db, 'SELECT * FROM assets WHERE repository_id = ? AND hash = ? AND file_size = ? ORDER BY is_deleted, created_at').all(repositoryId, hash, size) as AssetRow[];
  }

  insert(a: NewAsset, now: number): void {
    prepared(
      this.db,
      `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, hash,
         file_mtime, file_modified_time, file_modified_offset_minutes, upload_time, state, status, created_at, updated_at)
       VALUES (@asset_id, @owner_id, @repository_id, @storage_path, @type, @original_filename, @mime_type, @file_size, @hash,
         @file_mtime, @file_modified_time, @file_modified_offset_minutes, @now, 'pending', '[10]', @now, @now)`,
    ).run({ file_modified_time: null, file_modified_offset_minutes: null, ...a, now });
  }

  update(id: string, fields: Partial<Omit<AssetRow, 'asset_id' | 'created_at'>>, now: number): void {
    const cols = Object.keys(fields);
    if (cols.length === 0) return;
    const sets = [...cols.map((k) => `${k} = @${k}`), 'updated_at = @now'];
    // One kept statement per set of columns: the shapes are the few the code writes.
    prepared(this.db, `UPDATE assets SET ${sets.join(', ')} WHERE asset_id = @id`).run({ ...fields, now, id });
  }

  /** Assets of a repository whose path starts with a folder prefix ('' = all), for reconciling scans. */
  pathsIn(repositoryId: string): { asset_id: string; storage_path: string; file_size: number; file_mtime: number | null; is_deleted: number }[] {
    return this.db
      .prepare('SELECT asset_id, storage_path, file_size, file_mtime, is_deleted FROM assets WHERE repository_id = ?')
      .all(repositoryId) as { asset_id: string; storage_path: string; file_size: number; file_mtime: number | null; is_deleted: number }[];
  }

  createMediaItem(id: string, ownerId: number, kind: string, primaryAssetId: string, now: number): void {
    prepared(this.db, 'INSERT INTO media_items (media_item_id, owner_id, media_kind, primary_asset_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      id,
      ownerId,
      kind,
      primaryAssetId,
      now,
      now,
    );
  }

  setComponent(mediaItemId: string, assetId: string, position: number, relation: string): void {
    prepared(
      this.db,
      `INSERT INTO media_item_components (media_item_id, asset_id, position, relation) VALUES (?, ?, ?, ?)
       ON CONFLICT (asset_id) DO UPDATE SET media_item_id = excluded.media_item_id, position = excluded.position, relation = excluded.relation`,
    ).run(mediaItemId, assetId, position, relation);
    prepared(this.db, 'UPDATE assets SET media_item_id = ? WHERE asset_id = ?').run(mediaItemId, assetId);
  }

  /** Removes media items left without components. */
  pruneEmptyMediaItems(): void {
    this.db.prepare('DELETE FROM media_items WHERE media_item_id NOT IN (SELECT media_item_id FROM media_item_components)').run();
  }

  /** The rows of these checked ids (one query). */
  byIds(ids: readonly PermittedAssetId[]): AssetRow[] {
    if (ids.length === 0) return [];
    return prepared(this.db, 'SELECT * FROM assets WHERE asset_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as AssetRow[];
  }

  tagLinks(assetId: string): TagLinkRow[] {
    return prepared(
      this.db,
      `SELECT t.tag_id, t.tag_name, at.source, at.confidence FROM asset_tags at JOIN tags t ON t.tag_id = at.tag_id
         WHERE at.asset_id = ? ORDER BY t.tag_name COLLATE NOCASE, t.tag_id`,
    )
      .all(assetId) as TagLinkRow[];
  }

  /** Albums of `ownerId` that contain the asset, oldest membership first. */
  albumsOf(assetId: string, ownerId: number): AssetAlbumRow[] {
    return prepared(
      this.db,
      `SELECT al.album_id, al.album_name, aa.added_at, aa.position FROM album_assets aa JOIN albums al ON al.album_id = aa.album_id
         WHERE aa.asset_id = ? AND al.owner_id = ? ORDER BY aa.added_at, al.album_id`,
    )
      .all(assetId, ownerId) as AssetAlbumRow[];
  }

  /** Species predictions of these assets, best first per asset. */
  species(assetIds: string[]): SpeciesRow[] {
    if (assetIds.length === 0) return [];
    return prepared(
      this.db,
      `SELECT asset_id, label, score FROM species_predictions WHERE asset_id IN (SELECT value FROM json_each(?))
         ORDER BY asset_id, score DESC, label`,
    )
      .all(JSON.stringify(assetIds)) as SpeciesRow[];
  }

  /** The stack each of these assets' media items belongs to (assets outside any stack are absent). */
  stacks(assetIds: string[]): AssetStackRow[] {
    if (assetIds.length === 0) return [];
    return prepared(
      this.db,
      `SELECT a.asset_id, s.stack_id, s.stack_kind,
           (SELECT count(*) FROM stack_members m2 WHERE m2.stack_id = s.stack_id) AS stack_size,
           (coalesce(s.cover_media_item_id,
              (SELECT m3.media_item_id FROM stack_members m3 WHERE m3.stack_id = s.stack_id ORDER BY m3.position, m3.media_item_id LIMIT 1))
            = sm.media_item_id) AS is_cover
         FROM assets a
         JOIN media_item_components c ON c.asset_id = a.asset_id
         JOIN stack_members sm ON sm.media_item_id = c.media_item_id
         JOIN stacks s ON s.stack_id = sm.stack_id
         WHERE a.asset_id IN (SELECT value FROM json_each(?))`,
    )
      .all(JSON.stringify(assetIds)) as AssetStackRow[];
  }

  /** The media item an asset is a component of, with its components in position order. */
  mediaItemOf(assetId: string): { item: MediaItemRow; components: ComponentRow[] } | undefined {
    const item = this.db
      .prepare(
        `SELECT m.media_item_id, m.media_kind, m.primary_asset_id FROM media_item_components c
         JOIN media_items m ON m.media_item_id = c.media_item_id WHERE c.asset_id = ?`,
      )
      .get(assetId) as MediaItemRow | undefined;
    if (!item) return undefined;
    const components = this.db
      .prepare('SELECT asset_id, position, relation FROM media_item_components WHERE media_item_id = ? ORDER BY position, asset_id')
      .all(item.media_item_id) as ComponentRow[];
    return { item, components };
  }

  // ------------------------------------------------------------------ source facts (fact-precedence.ts)

  /** The source's facts kept for an asset (migration 0031), or null when no source said anything of it. */
  sourceFacts(assetId: string): KeptFacts | null {
    const r = prepared(this.db, 'SELECT facts, applied_at FROM asset_source_facts WHERE asset_id = ?').get(assetId) as { facts: string; applied_at: number | null } | undefined;
    return r ? { facts: JSON.parse(r.facts) as SourceFacts, fresh: r.applied_at === null } : null;
  }

  /**
   * Keeps what a source said of an asset (in the catalog write's transaction). The same facts again (a re-read, a
   * re-run with the same source ref and version) change nothing, so one-shot facts already applied stay applied;
   * different ones replace them, and are new unless `fresh` is false (only values other than the one-shot ones
   * changed: those stay applied, fact-precedence.ts `mergeFacts`).
   */
  keepSourceFacts(assetId: string, source: string, facts: SourceFacts, now: number, fresh = true): void {
    const json = JSON.stringify(facts);
    prepared(
      this.db,
      `INSERT INTO asset_source_facts (asset_id, source, source_id, version, facts, applied_at, updated_at)
       VALUES (@asset_id, @source, @source_id, @version, @facts, NULL, @now)
       ON CONFLICT (asset_id) DO UPDATE SET source = excluded.source, source_id = excluded.source_id, version = excluded.version,
         facts = excluded.facts, applied_at = CASE WHEN @fresh THEN NULL ELSE applied_at END, updated_at = excluded.updated_at
       WHERE facts IS NOT excluded.facts OR source IS NOT excluded.source OR source_id IS NOT excluded.source_id OR version IS NOT excluded.version`,
    ).run({ asset_id: assetId, source: facts.sourceRef?.source ?? source, source_id: facts.sourceRef?.id ?? null, version: facts.sourceRef?.version ?? null, facts: json, now, fresh: fresh ? 1 : 0 });
  }

  /** The one-shot facts (favourite, rating, description) were applied by the pipeline: never again for these facts. */
  factsApplied(assetId: string, now: number): void {
    prepared(this.db, 'UPDATE asset_source_facts SET applied_at = ? WHERE asset_id = ? AND applied_at IS NULL').run(now, assetId);
  }

  // ------------------------------------------------------------------ source pairs (migration 0036, source-pairs.ts)

  /** What a source said this asset belongs with (its edit's original, its clip's still), if anything. */
  sourcePair(assetId: string): SourcePairRow | undefined {
    return prepared(this.db, 'SELECT asset_id, partner_id, said_as FROM asset_source_pairs WHERE asset_id = ?').get(assetId) as SourcePairRow | undefined;
  }

  /** The assets a source said belong with this one, in the library (not the Trash), oldest first. */
  sourceDependents(partnerId: string): (AssetRow & { said_as: SaidAs })[] {
    return prepared(
      this.db,
      `SELECT a.*, p.said_as FROM asset_source_pairs p JOIN assets a ON a.asset_id = p.asset_id
       WHERE p.partner_id = ? AND a.is_deleted = 0 ORDER BY a.created_at, a.asset_id`,
    ).all(partnerId) as (AssetRow & { said_as: SaidAs })[];
  }

  /** Whether any asset is said to belong with this one. */
  hasSourceDependents(partnerId: string): boolean {
    return prepared(this.db, 'SELECT 1 FROM asset_source_pairs WHERE partner_id = ? LIMIT 1').get(partnerId) !== undefined;
  }

  /** Keeps what a source said an asset belongs with, unless something is kept for it already; whether it was kept. */
  keepSourcePair(row: SourcePairRow, source: string, now: number): boolean {
    return (
      prepared(
        this.db,
        `INSERT INTO asset_source_pairs (asset_id, partner_id, said_as, source, created_at) VALUES (@asset_id, @partner_id, @said_as, @source, @now)
         ON CONFLICT (asset_id) DO NOTHING`,
      ).run({ ...row, source, now }).changes > 0
    );
  }

  // ------------------------------------------------------------------ columns other features compute

  /**
   * Geohashes computed by features/places (place-names.ts), in one transaction. Each is set only while the
   * row still has the position it was computed from and no geohash, so a position changed meanwhile is not
   * given the old one's. Returns how many rows took theirs.
   */
  setGeohashes(rows: readonly { rowid: number; lat: number; lon: number; geohash5: string | null; geohash7: string | null }[]): number {
    const set = prepared(
      this.db,
      'UPDATE assets SET geohash5 = @geohash5, geohash7 = @geohash7 WHERE rowid = @rowid AND gps_latitude IS @lat AND gps_longitude IS @lon AND geohash7 IS NULL',
    );
    let changed = 0;
    this.db.transaction(() => {
      for (const r of rows) changed += set.run(r).changes;
    })();
    return changed;
  }

  /**
   * pHashes recomputed at recipe `version` by features/duplicates (phash.backfill.ts), set only while the row
   * still has the recipe `was` they replace (ingest may have processed it again meanwhile). True when set.
   */
  setPhashes(assetId: string, hashes: { phash: string; windows: string | null }, version: number, was: number): boolean {
    return (
      prepared(this.db, 'UPDATE assets SET phash = @phash, phash_windows = @windows, phash_version = @version WHERE asset_id = @id AND phash_version = @was').run({
        ...hashes,
        version,
        id: assetId,
        was,
      }).changes > 0
    );
  }

  /** A photo's window pHashes, added where its whole-frame pHash is of recipe `version` and it has none yet. */
  addPhashWindows(assetId: string, windows: string, version: number): boolean {
    return prepared(this.db, 'UPDATE assets SET phash_windows = ? WHERE asset_id = ? AND phash_windows IS NULL AND phash_version = ?').run(windows, assetId, version).changes > 0;
  }
}

/** SQL for assets and media items. No rules here. */
import type { Db } from '../../platform/db/connection.ts';

export interface AssetRow {
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
  liked: number;
  rating: number;
  description: string | null;
  is_deleted: number;
  deleted_at: number | null;
  content_id: string | null;
  phash: string | null;
  specific_metadata: string | null;
  exif_raw: string | null;
  state: 'pending' | 'processing' | 'ready' | 'failed';
  status: string;
  last_error: string | null;
  media_item_id: string | null;
  created_at: number;
  updated_at: number;
}

export type NewAsset = Pick<
  AssetRow,
  'asset_id' | 'owner_id' | 'repository_id' | 'storage_path' | 'type' | 'original_filename' | 'mime_type' | 'file_size' | 'hash' | 'file_mtime'
>;

export class AssetsStore {
  constructor(private readonly db: Db) {}

  byId(id: string): AssetRow | undefined {
    return this.db.prepare('SELECT * FROM assets WHERE asset_id = ?').get(id) as AssetRow | undefined;
  }

  byPath(repositoryId: string, storagePath: string): AssetRow | undefined {
    return this.db.prepare('SELECT * FROM assets WHERE repository_id = ? AND storage_path = ?').get(repositoryId, storagePath) as AssetRow | undefined;
  }

  byHash(repositoryId: string, hash: string, size: number): AssetRow[] {
    return this.db
      .prepare('SELECT * FROM assets WHERE repository_id = ? AND hash = ? AND file_size = ? ORDER BY is_deleted, created_at')
      .all(repositoryId, hash, size) as AssetRow[];
  }

  insert(a: NewAsset, now: number): void {
    this.db
      .prepare(
        `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, hash,
           file_mtime, upload_time, state, status, created_at, updated_at)
         VALUES (@asset_id, @owner_id, @repository_id, @storage_path, @type, @original_filename, @mime_type, @file_size, @hash,
           @file_mtime, @now, 'pending', '[10]', @now, @now)`,
      )
      .run({ ...a, now });
  }

  update(id: string, fields: Partial<Omit<AssetRow, 'asset_id' | 'created_at'>>, now: number): void {
    const cols = Object.keys(fields);
    if (cols.length === 0) return;
    const sets = [...cols.map((k) => `${k} = @${k}`), 'updated_at = @now'];
    this.db.prepare(`UPDATE assets SET ${sets.join(', ')} WHERE asset_id = @id`).run({ ...fields, now, id });
  }

  /** Assets of a repository whose path starts with a folder prefix ('' = all), for reconciling scans. */
  pathsIn(repositoryId: string): { asset_id: string; storage_path: string; file_size: number; file_mtime: number | null; is_deleted: number }[] {
    return this.db
      .prepare('SELECT asset_id, storage_path, file_size, file_mtime, is_deleted FROM assets WHERE repository_id = ?')
      .all(repositoryId) as { asset_id: string; storage_path: string; file_size: number; file_mtime: number | null; is_deleted: number }[];
  }

  createMediaItem(id: string, ownerId: number, kind: string, primaryAssetId: string, now: number): void {
    this.db
      .prepare('INSERT INTO media_items (media_item_id, owner_id, media_kind, primary_asset_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(id, ownerId, kind, primaryAssetId, now, now);
  }

  setComponent(mediaItemId: string, assetId: string, position: number, relation: string): void {
    this.db
      .prepare(
        `INSERT INTO media_item_components (media_item_id, asset_id, position, relation) VALUES (?, ?, ?, ?)
         ON CONFLICT (asset_id) DO UPDATE SET media_item_id = excluded.media_item_id, position = excluded.position, relation = excluded.relation`,
      )
      .run(mediaItemId, assetId, position, relation);
    this.db.prepare('UPDATE assets SET media_item_id = ? WHERE asset_id = ?').run(mediaItemId, assetId);
  }

  /** Removes media items left without components. */
  pruneEmptyMediaItems(): void {
    this.db.prepare('DELETE FROM media_items WHERE media_item_id NOT IN (SELECT media_item_id FROM media_item_components)').run();
  }

  setReceipt(receiptId: string, fields: { status: string; asset_id?: string | null; problem?: string | null }, now: number): void {
    this.db
      .prepare('UPDATE upload_receipts SET status = @status, asset_id = coalesce(@asset_id, asset_id), problem = @problem, updated_at = @now WHERE receipt_id = @id')
      .run({ status: fields.status, asset_id: fields.asset_id ?? null, problem: fields.problem ?? null, now, id: receiptId });
  }
}

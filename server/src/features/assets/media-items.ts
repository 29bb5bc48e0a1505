/**
 * Linking assets into logical media items:
 * - RAW + JPEG (or HEIC) pair: same folder, same base name, same owner → one `photo` item whose
 *   primary is the viewable JPEG (`jpeg_original`, position 0) with the RAW as `raw_original`.
 * - Apple live photo: a still and a motion clip with the same content identifier → one `live_photo`
 *   item (`live_photo_still`, `live_photo_video`), primary the still.
 * - Anything else is a single-component item (`original`).
 */
import path from 'node:path';
import type { Db } from '../../platform/db/connection.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { AssetRow, AssetsStore } from './assets.store.ts';

const isRaw = (a: AssetRow) => {
  try {
    return Boolean(a.specific_metadata && (JSON.parse(a.specific_metadata) as { is_raw?: boolean }).is_raw);
  } catch {
    return false;
  }
};

function stem(p: string): string {
  const base = path.posix.basename(p);
  return base.slice(0, base.length - path.posix.extname(base).length).toLowerCase();
}

export function linkMediaItem(db: Db, store: AssetsStore, asset: AssetRow, now: number): string {
  let partner: AssetRow | undefined;
  let kind = asset.type.toLowerCase();
  let roles: [AssetRow, string][] = [[asset, 'original']];

  if (asset.content_id) {
    partner = (
      db
        .prepare(
          `SELECT * FROM assets WHERE owner_id = ? AND content_id = ? AND asset_id != ? AND type != ? AND is_deleted = 0
           ORDER BY created_at LIMIT 1`,
        )
        .all(asset.owner_id, asset.content_id, asset.asset_id, asset.type) as AssetRow[]
    )[0];
    if (partner && (asset.type === 'PHOTO' || partner.type === 'PHOTO')) {
      const still = asset.type === 'PHOTO' ? asset : partner;
      const motion = asset.type === 'PHOTO' ? partner : asset;
      kind = 'live_photo';
      roles = [
        [still, 'live_photo_still'],
        [motion, 'live_photo_video'],
      ];
    } else partner = undefined;
  }

  if (!partner && asset.type === 'PHOTO') {
    const dir = path.posix.dirname(asset.storage_path);
    const siblings = db
      .prepare(
        `SELECT * FROM assets WHERE repository_id = ? AND owner_id = ? AND type = 'PHOTO' AND is_deleted = 0 AND asset_id != ?
           AND storage_path LIKE ? ESCAPE '\\'`,
      )
      .all(asset.repository_id, asset.owner_id, asset.asset_id, `${dir === '.' ? '' : `${dir.replace(/[\\%_]/g, '\\$&')}/`}%`) as AssetRow[];
    partner = siblings.find(
      (s) => path.posix.dirname(s.storage_path) === dir && stem(s.storage_path) === stem(asset.storage_path) && isRaw(s) !== isRaw(asset),
    );
    if (partner) {
      const raw = isRaw(asset) ? asset : partner;
      const jpeg = isRaw(asset) ? partner : asset;
      kind = 'photo';
      roles = [
        [jpeg, 'jpeg_original'],
        [raw, 'raw_original'],
      ];
    }
  }

  const existingId = roles.map(([a]) => a.media_item_id).find((id): id is string => !!id);
  const mediaItemId = existingId ?? uuidv7(now);
  const primary = roles[0]![0];
  if (!existingId) store.createMediaItem(mediaItemId, asset.owner_id, kind, primary.asset_id, now);
  else db.prepare('UPDATE media_items SET media_kind = ?, primary_asset_id = ?, updated_at = ? WHERE media_item_id = ?').run(kind, primary.asset_id, now, mediaItemId);
  roles.forEach(([a, relation], i) => store.setComponent(mediaItemId, a.asset_id, i, relation));
  store.pruneEmptyMediaItems();
  return mediaItemId;
}

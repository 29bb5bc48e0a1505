/**
 * Linking assets into logical media items, and what an item is made of (its composition).
 *
 * - RAW + JPEG (or HEIC) pair: same folder, same base name, same owner → one `photo` item whose
 *   primary is the viewable JPEG (`jpeg_original`) with the RAW as `raw_original`.
 * - Edit iterations: `IMG_0042-2.jpg` is an edit of `IMG_0042` when a photo with the un-suffixed
 *   name exists (same owner and repository, any folder: exports often land elsewhere) and both
 *   capture times are known and within 5 s of each other. The iterations join the original's item as
 *   `edited_version` (ordered by their number), together with its RAW partner if it has one.
 * - Apple live photo: a still and a motion clip with the same content identifier → one `live_photo`
 *   item (`live_photo_still`, `live_photo_video`), primary the still.
 * - Samsung/Google motion photo: one file holding the still and its clip (`specific_metadata.motion_photo`,
 *   set by the pipeline once the clip is extracted) → a `live_photo` item of that one asset as
 *   `live_photo_still`; its motion is the asset's own web video (getAssetWebVideo), so the composition says
 *   `has_live_motion` with a single component.
 * - Files a source said belong together (asset_source_pairs, migration 0036; stated through the door by an import,
 *   features/assets/ingest/source-pairs.ts): an edited copy joins its original's item as `edited_version`; a video
 *   companion of a photo (a Live Photo's clip without Apple's content identifier) makes a `live_photo` item with the
 *   photo as `live_photo_still`; a photo companion is the `raw_original` (a RAW) or an `alternative`. Decision: the
 *   statement is kept, not its result, and the item is always built from the partner's side (the original, the
 *   still), so every relink (the pipeline's, stack detection's, a re-read) comes out the same and none undoes it.
 *   These join whatever the original's own files make of it (its RAW, its `-2` iterations, its content identifier).
 * - Anything else is a single-component item (`original`).
 *
 * Component order (position 0 is the primary, the asset that stands for the item): `jpeg_original`,
 * `original`, `live_photo_still`, `edited_version`, `raw_original`, `live_photo_video`; so a RAW with
 * only an exported edit shows the edit. Linking is idempotent and works whatever order the files
 * arrive in: the later file finds the earlier ones. When two items merge, the one that disappears
 * hands its stack membership to the survivor if the survivor had none (stacks are presentation
 * groups of media items, see features/stacks); stacks left with fewer than two members dissolve.
 *
 * Run once per file processed, so its statements are kept prepared per connection (platform/db/prepared.ts).
 */
import path from 'node:path';
import type { Db } from '../../../platform/db/connection.ts';
import { prepared } from '../../../platform/db/prepared.ts';
import { uuidv7 } from '../../../platform/ids.ts';
import { StacksStore } from '../../stacks/index.ts';
import { forSystem } from '../../../platform/access/index.ts';
import type { AssetRow, AssetsStore, SaidAs } from '../assets.store.ts';

/** Capture times of an original and its edit iterations differ by at most this. */
export const EDIT_WINDOW_MS = 5_000;
const EDIT_SUFFIX = /^(.+)-(\d+)$/;

const RELATION_ORDER: Record<string, number> = {
  jpeg_original: 0,
  original: 1,
  live_photo_still: 2,
  edited_version: 3,
  raw_original: 4,
  alternative: 5,
  live_photo_video: 6,
};

/** A motion photo whose embedded clip was extracted (see the pipeline's motionClip). */
export function hasEmbeddedMotion(a: Pick<AssetRow, 'specific_metadata'>): boolean {
  try {
    return Boolean(a.specific_metadata && (JSON.parse(a.specific_metadata) as { motion_photo?: unknown }).motion_photo);
  } catch {
    return false;
  }
}

export function isRawAsset(a: Pick<AssetRow, 'specific_metadata'>): boolean {
  try {
    return Boolean(a.specific_metadata && (JSON.parse(a.specific_metadata) as { is_raw?: boolean }).is_raw);
  } catch {
    return false;
  }
}

/** Lower-cased file name without its extension. */
export function fileStem(p: string): string {
  const base = path.posix.basename(p.replace(/\\/g, '/'));
  return base.slice(0, base.length - path.posix.extname(base).length).toLowerCase();
}

/** `img_0042-2` → {base: 'img_0042', iteration: 2}; null when the stem has no `-<digits>` suffix. */
export function editSuffix(stem: string): { base: string; iteration: number } | null {
  const m = EDIT_SUFFIX.exec(stem);
  return m ? { base: m[1]!, iteration: Number(m[2]) } : null;
}

/** The relation of the original of a multi-file photo item. */
function originalRelation(a: AssetRow): string {
  if (isRawAsset(a)) return 'raw_original';
  return a.mime_type === 'image/jpeg' ? 'jpeg_original' : 'original';
}

type Role = [AssetRow, string];

export function linkMediaItem(db: Db, store: AssetsStore, asset: AssetRow, now: number): string {
  // A file a source said belongs with another is linked from that other's side, so the item comes out the same
  // whichever of the two is processed last (and however often either is processed again).
  const anchor = sourceAnchor(store, asset) ?? asset;
  const { kind, roles } = withSourceDependents(store, anchor, ownRoles(db, anchor), asset);
  // Stable: within one relation the group's own order stays (the original first, iterations by number).
  roles.sort(([, ra], [, rb]) => (RELATION_ORDER[ra] ?? 9) - (RELATION_ORDER[rb] ?? 9));
  return writeItem(db, store, roles, kind, now);
}

interface Grouping {
  kind: string;
  roles: Role[];
}

/** The item an asset forms by what its files say (content identifier, names, capture times). */
function ownRoles(db: Db, asset: AssetRow): Grouping {
  const live = asset.content_id ? livePartner(db, asset) : undefined;
  if (live) {
    const still = asset.type === 'PHOTO' ? asset : live;
    const motion = asset.type === 'PHOTO' ? live : asset;
    return {
      kind: 'live_photo',
      roles: [
        [still, 'live_photo_still'],
        [motion, 'live_photo_video'],
      ],
    };
  }
  if (asset.type === 'PHOTO') {
    const group = photoGroup(db, asset);
    if (group.length > 1) return { kind: 'photo', roles: group };
    if (hasEmbeddedMotion(asset)) return { kind: 'live_photo', roles: [[asset, 'live_photo_still']] };
  }
  return { kind: asset.type.toLowerCase(), roles: [[asset, 'original']] };
}

/**
 * The partner a source said this asset belongs with (asset_source_pairs, features/assets/ingest/source-pairs.ts),
 * when it can anchor the item now: same owner, in the library, and processed (linked into an item). A partner still
 * waiting for the pipeline picks this asset up when it is linked itself.
 */
function sourceAnchor(store: AssetsStore, asset: AssetRow): AssetRow | undefined {
  const pair = store.sourcePair(asset.asset_id);
  if (!pair) return undefined;
  const partner = store.byId(forSystem('asset', pair.partner_id));
  return partner && partner.owner_id === asset.owner_id && partner.is_deleted === 0 && partner.media_item_id !== null ? partner : undefined;
}

/**
 * Adds the files a source said belong with `anchor` to the item its own files make. Only files already processed
 * join (and `trigger`, the one being linked now, with its fresh row): a file still waiting for the pipeline joins
 * when it is linked. An edited copy is an `edited_version` (the original stays primary, as for local edit
 * iterations); a video companion of a photo is its `live_photo_video` (the item becomes a `live_photo`, the
 * original its `live_photo_still`); a photo companion is the `raw_original` when it is a RAW, else an `alternative`.
 */
function withSourceDependents(store: AssetsStore, anchor: AssetRow, own: Grouping, trigger: AssetRow): Grouping {
  const dependents = store
    .sourceDependents(anchor.asset_id)
    .filter((d) => d.owner_id === anchor.owner_id && (d.asset_id === trigger.asset_id || d.media_item_id !== null))
    .map((d) => (d.asset_id === trigger.asset_id ? { ...trigger, said_as: d.said_as } : d));
  if (dependents.length === 0) return own;
  let roles: Role[] = [...own.roles];
  for (const d of dependents) {
    if (!roles.some(([r]) => r.asset_id === d.asset_id)) roles.push([d, dependentRelation(d, d.said_as, anchor)]);
  }
  let kind = own.kind;
  if (roles.some(([, r]) => r === 'live_photo_video')) {
    kind = 'live_photo';
    roles = roles.map(([a, r]): Role => (a.asset_id === anchor.asset_id && (r === 'original' || r === 'jpeg_original') ? [a, 'live_photo_still'] : [a, r]));
  } else if (own.roles.length === 1 && own.roles[0]![1] === 'original') {
    // The original alone before: named as the original of a multi-file item (a JPEG, a RAW, another photo).
    roles[0] = [anchor, originalRelation(anchor)];
  }
  return { kind, roles };
}

function dependentRelation(d: AssetRow, said: SaidAs, anchor: AssetRow): string {
  if (said === 'edit') return 'edited_version';
  if (d.type === 'VIDEO' && anchor.type === 'PHOTO') return 'live_photo_video';
  return d.type === 'PHOTO' && isRawAsset(d) ? 'raw_original' : 'alternative';
}

function livePartner(db: Db, asset: AssetRow): AssetRow | undefined {
  const partner = prepared(
    db,
    `SELECT * FROM assets WHERE owner_id = ? AND content_id = ? AND asset_id != ? AND type != ? AND is_deleted = 0
     ORDER BY created_at LIMIT 1`,
  ).get(asset.owner_id, asset.content_id, asset.asset_id, asset.type) as AssetRow | undefined;
  return partner && (asset.type === 'PHOTO' || partner.type === 'PHOTO') ? partner : undefined;
}

/**
 * The photos of a folder named like one path up to its extension, any ASCII letter case: repository, the path
 * without its extension + '.', the same + '/', folder, owner, the photo itself (left out). Exported for the test of
 * its query plan.
 */
export const PARTNER_CANDIDATES = `SELECT * FROM assets WHERE repository_id = ? AND lower(storage_path) >= lower(?) AND lower(storage_path) < lower(?)
  AND +folder_path = ? AND +owner_id = ? AND type = 'PHOTO' AND +is_deleted = 0 AND asset_id != ?`;

/** The RAW/JPEG partner of a photo: same folder, same stem, the other kind. */
function pairPartner(db: Db, asset: AssetRow): AssetRow | undefined {
  const dir = path.posix.dirname(asset.storage_path);
  // Every path of this folder whose name is this one's up to a dot: one range of the folded path index (migration
  // 0042), the few files of the same name, not the whole folder ('.' + 1 is '/'). The unary + keeps the planner
  // on that index rather than the folder's or the owner's.
  const stem = asset.storage_path.slice(0, asset.storage_path.length - path.posix.extname(asset.storage_path).length);
  const siblings = prepared(db, PARTNER_CANDIDATES).all(asset.repository_id, `${stem}.`, `${stem}/`, dir === '.' ? '' : dir, asset.owner_id, asset.asset_id) as AssetRow[];
  return siblings.find((s) => fileStem(s.storage_path) === fileStem(asset.storage_path) && isRawAsset(s) !== isRawAsset(asset));
}

/** The photos that form one item with this one: its RAW/JPEG partner and edit iterations (or just itself). */
function photoGroup(db: Db, asset: AssetRow): Role[] {
  // A date of last resort (the file's modification time) says nothing about an edit: files copied at once share it.
  const edits = asset.taken_time !== null && asset.time_source !== 'file_modified' ? editGroup(db, asset, asset.taken_time) : null;
  if (!edits) {
    const partner = pairPartner(db, asset);
    if (!partner) return [[asset, 'original']];
    const raw = isRawAsset(asset) ? asset : partner;
    const jpeg = isRawAsset(asset) ? partner : asset;
    return [
      [jpeg, 'jpeg_original'],
      [raw, 'raw_original'],
    ];
  }
  const { anchor, copies, iterations } = edits;
  const roles: Role[] = [[anchor, originalRelation(anchor)]];
  const partner = pairPartner(db, anchor);
  for (const a of partner ? [partner, ...copies] : copies) {
    if (!roles.some(([r]) => r.asset_id === a.asset_id)) roles.push([a, originalRelation(a)]);
  }
  for (const it of iterations) roles.push([it, 'edited_version']);
  return roles;
}

/**
 * The original and its edit iterations around a photo that has a capture time, or null when the photo
 * is neither an edit of an original nor an original with edits. Looks only at the owner's photos of
 * the same repository captured within the window (an index range on capture time).
 */
function editGroup(db: Db, asset: AssetRow, taken: number): { anchor: AssetRow; copies: AssetRow[]; iterations: AssetRow[] } | null {
  const near = prepared(
    db,
    `SELECT * FROM assets WHERE owner_id = @owner AND is_deleted = 0 AND taken_time BETWEEN @from AND @to
       AND repository_id = @repo AND type = 'PHOTO' AND asset_id != @id AND time_source IS NOT 'file_modified'`,
  ).all({ owner: asset.owner_id, from: taken - 2 * EDIT_WINDOW_MS, to: taken + 2 * EDIT_WINDOW_MS, repo: asset.repository_id, id: asset.asset_id }) as AssetRow[];
  if (near.length === 0) return null;
  const all = [asset, ...near];
  const stemOf = (a: AssetRow) => fileStem(a.original_filename);
  const within = (a: AssetRow, b: AssetRow) => a.taken_time !== null && b.taken_time !== null && Math.abs(a.taken_time - b.taken_time) <= EDIT_WINDOW_MS;
  // The original: the viewable file (not the RAW) when there is one.
  const originalOf = (stem: string, around: AssetRow) => {
    const same = all.filter((a) => stemOf(a) === stem && within(a, around));
    return same.find((a) => !isRawAsset(a)) ?? same[0];
  };

  const own = editSuffix(stemOf(asset));
  const anchor = (own && originalOf(own.base, asset)) || originalOf(stemOf(asset), asset) || asset;
  const base = stemOf(anchor);
  const iterations = all
    .filter((a) => editSuffix(stemOf(a))?.base === base && within(a, anchor))
    .sort((a, b) => editSuffix(stemOf(a))!.iteration - editSuffix(stemOf(b))!.iteration || a.asset_id.localeCompare(b.asset_id));
  if (iterations.length === 0) return null;
  // Other files of the original (a RAW beside a JPEG, possibly in another folder).
  const copies = all.filter((a) => a !== anchor && stemOf(a) === base && within(a, anchor));
  return { anchor, copies, iterations };
}

/** Writes the components of one item, merging the items they were in before. Returns the item id. */
function writeItem(db: Db, store: AssetsStore, roles: Role[], kind: string, now: number): string {
  const stacks = new StacksStore(db);
  const members = new Set(roles.map(([a]) => a.asset_id));
  const previous = [...new Set(roles.map(([a]) => a.media_item_id).filter((id): id is string => !!id))];
  const componentsOf = (id: string) =>
    prepared(db, 'SELECT asset_id FROM media_item_components WHERE media_item_id = ? ORDER BY position').pluck(true).all(id) as string[];

  // A single file that used to share an item with others leaves it for an item of its own.
  let mediaItemId: string | undefined;
  if (roles.length === 1) {
    const current = roles[0]![0].media_item_id;
    if (current && componentsOf(current).every((id) => members.has(id))) mediaItemId = current;
  } else {
    // Prefer the primary's item, then any item of the group.
    mediaItemId = roles.map(([a]) => a.media_item_id).find((id): id is string => !!id);
  }

  const primary = roles[0]![0];
  if (!mediaItemId) {
    mediaItemId = uuidv7(now);
    store.createMediaItem(mediaItemId, primary.owner_id, kind, primary.asset_id, now);
  } else {
    prepared(db, 'UPDATE media_items SET media_kind = ?, primary_asset_id = ?, updated_at = ? WHERE media_item_id = ?').run(kind, primary.asset_id, now, mediaItemId);
  }
  // The merged-away items hand their stack membership over when the survivor has none.
  for (const old of previous) if (old !== mediaItemId) stacks.transferMembership(old, mediaItemId);

  const leftovers = componentsOf(mediaItemId).filter((id) => !members.has(id));
  roles.forEach(([a, relation], i) => store.setComponent(mediaItemId, a.asset_id, i, relation));
  leftovers.forEach((id, i) => prepared(db, 'UPDATE media_item_components SET position = ? WHERE asset_id = ?').run(roles.length + i, id));

  // Items that lost components keep a compact order and a primary that still belongs to them.
  for (const old of previous) if (old !== mediaItemId) repairMediaItem(db, old, now);
  const touched = stacks.stacksOfItems([mediaItemId, ...previous]);
  // Items merged away (only those: a scan of every item would be slow on a large library).
  const drop = prepared(db, 'DELETE FROM media_items WHERE media_item_id = ? AND NOT EXISTS (SELECT 1 FROM media_item_components WHERE media_item_id = ?)');
  for (const old of previous) if (old !== mediaItemId) drop.run(old, old);
  stacks.normalize(touched, now);
  return mediaItemId;
}

/** Compacts an item's component positions and points its primary at position 0 (no-op when empty). */
export function repairMediaItem(db: Db, mediaItemId: string, now: number): void {
  const comps = db
    .prepare('SELECT asset_id, relation FROM media_item_components WHERE media_item_id = ? ORDER BY position, asset_id')
    .all(mediaItemId) as { asset_id: string; relation: string }[];
  if (comps.length === 0) return;
  comps.forEach((c, i) => prepared(db, 'UPDATE media_item_components SET position = ? WHERE asset_id = ?').run(i, c.asset_id));
  const liveVideo = comps.some((c) => c.relation === 'live_photo_video');
  const embedded = comps.length === 1 && comps[0]!.relation === 'live_photo_still'
    && hasEmbeddedMotion((prepared(db, 'SELECT specific_metadata FROM assets WHERE asset_id = ?').get(comps[0]!.asset_id) as Pick<AssetRow, 'specific_metadata'> | undefined) ?? { specific_metadata: null });
  const kindSql = (liveVideo && comps.length > 1) || embedded ? "'live_photo'" : `CASE (SELECT type FROM assets WHERE asset_id = @primary) WHEN 'VIDEO' THEN 'video' WHEN 'AUDIO' THEN 'audio' ELSE 'photo' END`;
  prepared(db, `UPDATE media_items SET primary_asset_id = @primary, media_kind = ${kindSql}, updated_at = @now WHERE media_item_id = @id`).run({
    primary: comps[0]!.asset_id,
    now,
    id: mediaItemId,
  });
}

// ------------------------------------------------------------------------------------------ composition

export interface Composition {
  component_count: number;
  has_edited: boolean;
  has_jpeg: boolean;
  has_live_motion: boolean;
  has_raw: boolean;
}

export interface CompositionPart {
  relation: string;
  mime_type: string;
  specific_metadata: string | null;
}

/** What an item is made of, from its components (the one implementation; browse uses it too). */
export function compositionOf(parts: readonly CompositionPart[]): Composition {
  return {
    component_count: parts.length,
    has_edited: parts.some((p) => p.relation === 'edited_version'),
    has_jpeg: parts.some((p) => p.mime_type === 'image/jpeg'),
    has_live_motion: parts.some((p) => p.relation === 'live_photo_video' || (p.relation === 'live_photo_still' && hasEmbeddedMotion(p))),
    has_raw: parts.some((p) => p.relation === 'raw_original' || isRawAsset(p)),
  };
}

/**
 * The composition of one media item over its components in one trash state (default: the library,
 * not the Trash). Null when the item does not exist.
 */
export function composition(db: Db, mediaItemId: string, opts: { isDeleted?: boolean } = {}): Composition | null {
  const exists = prepared(db, 'SELECT 1 FROM media_items WHERE media_item_id = ?').get(mediaItemId);
  if (!exists) return null;
  const parts = prepared(
    db,
    `SELECT c.relation, a.mime_type, a.specific_metadata FROM media_item_components c JOIN assets a ON a.asset_id = c.asset_id
     WHERE c.media_item_id = ? AND a.is_deleted = ? ORDER BY c.position`,
  ).all(mediaItemId, opts.isDeleted ? 1 : 0) as CompositionPart[];
  return compositionOf(parts);
}

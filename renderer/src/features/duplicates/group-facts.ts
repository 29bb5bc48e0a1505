/**
 * What the Duplicates screen says about a group and its photos, as plain functions (no React), so
 * test/renderer/duplicates-ui.test.ts checks the wording and the arithmetic without a browser.
 */
import type { components } from '../../api/schema.d.ts';
import { formatBytes } from '../../lib/format.ts';

export type DuplicateGroup = components['schemas']['DuplicateGroup'];
export type DuplicateMember = DuplicateGroup['assets'][number];
export type DuplicateSummary = components['schemas']['DuplicateSummary'];
export type MergeResult = components['schemas']['DuplicateMergeResult'];

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The group's heading: what linked its photos. */
export function methodLabel(method: DuplicateGroup['method']): string {
  if (method === 'exact') return 'Exact copies';
  if (method === 'phash') return 'Similar photos';
  return 'Copies and similar photos';
}

/**
 * The group's heading, named after its suggested keeper (stable while the person picks another):
 * "Exact copies: beach.jpg and 1 other".
 */
export function groupTitle(group: DuplicateGroup): string {
  const first = group.assets.find((m) => m.asset.asset_id === group.recommended_keeper_asset_id) ?? group.assets[0];
  const others = group.assets.length - 1;
  if (!first) return methodLabel(group.method);
  return `${methodLabel(group.method)}: ${first.asset.original_filename}${others > 0 ? ` and ${plural(others, 'other', 'others')}` : ''}`;
}

/** "4048 × 3036", or "Size unknown" for a file whose pixels were never read. */
export function resolutionOf(asset: { width: number | null; height: number | null }): string {
  return asset.width && asset.height ? `${asset.width} × ${asset.height}` : 'Size unknown';
}

/**
 * The keeper shown: the person's choice while it is still a member, else the server's recommendation
 * (larger file, then more pixels, rating, earlier capture), else the first photo.
 */
export function keeperOf(group: DuplicateGroup, chosen: string | undefined): string | undefined {
  const ids = group.assets.map((m) => m.asset.asset_id);
  if (chosen && ids.includes(chosen)) return chosen;
  if (group.recommended_keeper_asset_id && ids.includes(group.recommended_keeper_asset_id)) return group.recommended_keeper_asset_id;
  return ids[0];
}

/** The photos "Keep one" moves to the Trash with this keeper: every other member not already there. */
export function othersOf(group: DuplicateGroup, keeperId: string | undefined): DuplicateMember[] {
  return group.assets.filter((m) => m.asset.asset_id !== keeperId && !m.asset.is_deleted);
}

/** Bytes freed (once the Trash is emptied) by keeping `keeperId`: the server counts the same way. */
export function recoverableWith(group: DuplicateGroup, keeperId: string | undefined): number {
  return othersOf(group, keeperId).reduce((n, m) => n + m.file_size, 0);
}

/** The sentence under "Keep one": what happens to the others, before it happens. */
export function keepOneExplanation(group: DuplicateGroup, keeperId: string | undefined): string {
  const others = othersOf(group, keeperId).length;
  if (others === 0) return 'The other photos are already in the Trash.';
  const them = others === 1 ? 'The other photo goes' : `The other ${others} photos go`;
  return `${them} to the Trash (${formatBytes(recoverableWith(group, keeperId))}); ${others === 1 ? 'its' : 'their'} albums, tags, rating and favourite move to the one you keep.`;
}

/** After a merge: what was kept, what went to the Trash, the space it frees. */
export function mergedSentence(result: MergeResult, keeperName: string): string {
  const moved = result.merged_duplicates.length;
  if (result.recovered_bytes === 0) return `Kept ${keeperName}. The other ${moved === 1 ? 'copy was' : 'copies were'} already in the Trash.`;
  return (
    `Kept ${keeperName}; ${plural(moved, 'copy', 'copies')} moved to the Trash. ` +
    `${formatBytes(result.recovered_bytes)} recovered once the Trash is emptied (until then you can restore ${moved === 1 ? 'it' : 'them'} from the Trash).`
  );
}

/** The header's line about space: what keeping one photo of every group would free. */
export function summarySentence(s: DuplicateSummary): string {
  if (s.pending_groups === 0) return 'No duplicates waiting for you.';
  return (
    `${plural(s.pending_groups, 'group', 'groups')} of duplicates, ${plural(s.pending_assets, 'photo', 'photos')}. ` +
    `Keeping one photo of each group recovers ${formatBytes(s.recoverable_bytes)}.`
  );
}

/**
 * A photo's accessible name inside its group. Exact copies often share a file name (the same photo
 * copied into two folders), so the folder is added when another member has the same name.
 */
export function photoName(group: DuplicateGroup, member: DuplicateMember): string {
  const { original_filename: name, folder_path: folder } = member.asset;
  const shared = group.assets.some((m) => m !== member && m.asset.original_filename === name);
  return shared && folder ? `${name} in ${folder}` : name;
}

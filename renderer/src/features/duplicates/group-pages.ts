/**
 * Paging through the pending groups by offset. Resolving a group shifts every later one a place
 * forward, so a page asked for after a merge can start with a group already shown: it is shown once.
 */
import type { DuplicateGroup } from './group-facts.ts';

export interface GroupPage {
  groups: DuplicateGroup[];
  limit: number;
  offset: number;
  total: number;
}

/** The next page's offset, or undefined at the end (an empty page ends it too, whatever `total` says). */
export function nextGroupOffset(last: GroupPage): number | undefined {
  const next = last.offset + last.groups.length;
  return last.groups.length > 0 && next < last.total ? next : undefined;
}

export function flattenGroups(pages: readonly GroupPage[] | undefined): DuplicateGroup[] {
  const seen = new Set<string>();
  const out: DuplicateGroup[] = [];
  for (const g of (pages ?? []).flatMap((p) => p.groups)) {
    if (seen.has(g.group_id)) continue;
    seen.add(g.group_id);
    out.push(g);
  }
  return out;
}

/**
 * The pages without a group just resolved, shown at once; the list is read again right after, which
 * also puts the offsets right (every group after it moved a place forward on the server).
 */
export function withoutGroup(pages: readonly GroupPage[], groupId: string): GroupPage[] {
  return pages.map((p) => ({ ...p, groups: p.groups.filter((g) => g.group_id !== groupId), total: Math.max(0, p.total - 1) }));
}

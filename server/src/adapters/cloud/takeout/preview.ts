/**
 * What a set of parts holds, said before anything is imported: counts, albums, the dates it spans, what has no
 * sidecar and every problem found while reading it.
 */
import type { ListingProblem } from '../provider.ts';
import type { PartSummary } from './archive-entry.ts';
import type { TakeoutIndex } from './takeout-index.ts';

export interface TakeoutPreview {
  photos: number;
  videos: number;
  albums: { name: string; count: number }[];
  /** ISO-8601 UTC instants of the earliest and latest capture time the sidecars give; null when none does. */
  date_range: { from: string; to: string } | null;
  without_sidecar: { count: number; examples: string[] };
  problems: { where: string; reason: string }[];
  parts: PartSummary[];
}

const EXAMPLES = 20;

export function previewOf(index: TakeoutIndex, problems: ListingProblem[], parts: PartSummary[]): TakeoutPreview {
  let from = Infinity;
  let to = -Infinity;
  const without: string[] = [];
  let withoutCount = 0;
  for (const { item, hasSidecar } of index.items) {
    const t = item.facts.capturedAt?.time;
    if (t !== undefined) {
      from = Math.min(from, t);
      to = Math.max(to, t);
    }
    if (!hasSidecar) {
      withoutCount++;
      if (without.length < EXAMPLES) without.push(item.id);
    }
  }
  return {
    photos: index.items.filter((i) => i.kind === 'photo').length,
    videos: index.items.filter((i) => i.kind === 'video').length,
    albums: index.albums,
    date_range: from === Infinity ? null : { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
    without_sidecar: { count: withoutCount, examples: without },
    problems: problems.map(({ where, reason }) => ({ where, reason })),
    parts,
  };
}

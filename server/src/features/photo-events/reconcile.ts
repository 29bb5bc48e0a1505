/**
 * Reconciliation: which new segment keeps which existing event's id, so that an event's id (and the
 * person's title, cover and hidden flag on it) lives on across rebuilds (pure; the reference's
 * events-v1 rules).
 *
 * score = 0.7·Jaccard(members) + 0.2·IoU(time intervals) + 0.1·geo closeness (1 − d / 2 km, 0 when
 * either has no place). Pairs sharing at least one member are candidates; they are taken greedily,
 * ordered by: the event's chosen cover is in the segment, the event carries the person's state, score,
 * shared members, age (older first). A pair that is isolated (the event overlaps only this segment and
 * the segment only this event) needs score ≥ 0.40; in a split or merge the best pair keeps the id
 * whatever its score. Segments left get new ids; events left are retired, redirected to the new event
 * holding most of their former members (none: retired without successor).
 */
import { distanceKm, type LatLon } from './geo.ts';

export const ISOLATED_MIN_SCORE = 0.4;

export interface PreviousEvent {
  id: string;
  members: ReadonlySet<string>;
  start: number;
  end: number;
  centroid: LatLon | null;
  /** Title, cover or hidden set by the person. */
  hasUserState: boolean;
  coverItem: string | null;
  createdAt: number;
}

export interface NewSegment {
  members: readonly string[];
  start: number;
  end: number;
  centroid: LatLon | null;
}

export interface Reconciliation {
  /** Per segment (same order), the existing event id it keeps, or null for a new event. */
  assigned: (string | null)[];
  /** Events not kept, each with the index of the segment that succeeds it (null: none). */
  retired: { id: string; successor: number | null }[];
}

export function intervalIoU(a0: number, a1: number, b0: number, b1: number): number {
  const inter = Math.min(a1, b1) - Math.max(a0, b0);
  const union = Math.max(a1, b1) - Math.min(a0, b0);
  if (union <= 0) return a0 === b0 ? 1 : 0; // two instants
  return Math.max(0, inter) / union;
}

export function geoCloseness(a: LatLon | null, b: LatLon | null): number {
  if (!a || !b) return 0;
  return Math.max(0, 1 - distanceKm(a, b) / 2);
}

export function matchScore(prev: PreviousEvent, seg: NewSegment, shared: number): number {
  const jaccard = shared / (prev.members.size + seg.members.length - shared);
  return 0.7 * jaccard + 0.2 * intervalIoU(prev.start, prev.end, seg.start, seg.end) + 0.1 * geoCloseness(prev.centroid, seg.centroid);
}

export function reconcile(previous: readonly PreviousEvent[], segments: readonly NewSegment[]): Reconciliation {
  const steps = reconcileInSlices(previous, segments);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * The same, yielding after each previous event and each segment, in each pass over them (the caller gives the
 * event loop a turn when its slice is over): at 100k photos the member maps alone held the loop for tens of ms.
 */
export function* reconcileInSlices(previous: readonly PreviousEvent[], segments: readonly NewSegment[]): Generator<void, Reconciliation> {
  const owner = new Map<string, number>(); // member → previous event index
  for (let i = 0; i < previous.length; i++) {
    for (const m of previous[i]!.members) owner.set(m, i);
    yield;
  }
  // shared[(p, s)] counts
  const shared = new Map<number, Map<number, number>>();
  for (let si = 0; si < segments.length; si++) {
    for (const m of segments[si]!.members) {
      const pi = owner.get(m);
      if (pi === undefined) continue;
      let row = shared.get(pi);
      if (!row) shared.set(pi, (row = new Map()));
      row.set(si, (row.get(si) ?? 0) + 1);
    }
    yield;
  }
  const segDegree = new Map<number, number>();
  for (const row of shared.values()) for (const si of row.keys()) segDegree.set(si, (segDegree.get(si) ?? 0) + 1);

  const pairs: { pi: number; si: number; score: number; count: number; cover: number; user: number; isolated: boolean }[] = [];
  for (const [pi, row] of shared) {
    const p = previous[pi]!;
    for (const [si, count] of row) {
      const s = segments[si]!;
      pairs.push({
        pi,
        si,
        count,
        score: matchScore(p, s, count),
        cover: p.coverItem !== null && s.members.includes(p.coverItem) ? 1 : 0,
        user: p.hasUserState ? 1 : 0,
        isolated: row.size === 1 && segDegree.get(si) === 1,
      });
    }
    yield;
  }
  pairs.sort(
    (a, b) =>
      b.cover - a.cover || b.user - a.user || b.score - a.score || b.count - a.count || previous[a.pi]!.createdAt - previous[b.pi]!.createdAt || (previous[a.pi]!.id < previous[b.pi]!.id ? -1 : 1) || a.si - b.si,
  );
  const assigned: (string | null)[] = segments.map(() => null);
  const taken = new Set<number>();
  for (const x of pairs) {
    if (taken.has(x.pi) || assigned[x.si] !== null) continue;
    if (x.isolated && x.score < ISOLATED_MIN_SCORE) continue;
    assigned[x.si] = previous[x.pi]!.id;
    taken.add(x.pi);
  }
  const retired: Reconciliation['retired'] = [];
  for (let pi = 0; pi < previous.length; pi++) {
    yield;
    const p = previous[pi]!;
    if (taken.has(pi)) continue;
    let successor: number | null = null;
    let most = 0;
    for (const [si, count] of shared.get(pi) ?? []) {
      if (count > most || (count === most && successor !== null && si < successor)) {
        successor = si;
        most = count;
      }
    }
    retired.push({ id: p.id, successor });
  }
  return { assigned, retired };
}

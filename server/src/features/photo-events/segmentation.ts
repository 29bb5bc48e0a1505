/**
 * `events-v1` segmentation: a person's media items, in time order, cut into events (pure functions;
 * the rules are the original system's, /work/shared/reference §3 "Photo events").
 *
 * For each pair of neighbours in time (sorted by time, then id) a boundary is decided:
 * 1. cannot-link (a split the person made) ⇒ boundary; must-link spans and stack spans are locked
 *    (never a boundary inside them). A cannot-link wins over a lock: it is the person's latest word.
 * 2. gap ≥ 12 h ⇒ boundary;
 * 3. either side without GPS ⇒ boundary iff gap ≥ 3 h;
 * 4. with GPS on both: > 2 km apart at zero gap ⇒ boundary; implied speed > 300 km/h ⇒ boundary;
 *    within 2 km ⇒ boundary iff gap ≥ 6 h; farther ⇒ boundary iff gap ≥ 90 min.
 * Then no event lasts more than 36 h: inside a longer one the weakest unlocked edge (largest gap, then
 * largest distance, then earliest) becomes a boundary, again until every piece fits or none is left.
 *
 * A cannot-link between a and b (a earlier) puts the boundary on the edge just before b: everything
 * from b on leaves a's event, which is what "split here" means.
 */
import { nextTurn } from '../../platform/cache/slices.ts';
import { sortInSlices } from '../../platform/cache/sort-in-slices.ts';
import { distanceKm } from './geo.ts';

export const ALGORITHM_VERSION = 'events-v1';

const HOUR = 3_600_000;
export const RULES = {
  maxGapMs: 12 * HOUR,
  noGpsGapMs: 3 * HOUR,
  nearKm: 2,
  nearGapMs: 6 * HOUR,
  farGapMs: 90 * 60_000,
  maxSpeedKmh: 300,
  maxDurationMs: 36 * HOUR,
} as const;

/** One media item as the segmentation sees it. */
export interface Candidate {
  id: string;
  /** Candidate time (ms): earliest capture time of its files, else upload time, else creation. */
  time: number;
  lat: number | null;
  lon: number | null;
  /** Items of one stack stay together. */
  stackId?: string | null;
}

export interface Links {
  mustLink?: readonly (readonly [string, string])[];
  cannotLink?: readonly (readonly [string, string])[];
}

export function byTimeThenId(a: Candidate, b: Candidate): number {
  return a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const hasGps = (c: Candidate) => c.lat !== null && c.lon !== null;

/** Whether the rules (without links and the cap) put a boundary between neighbours a and b (a first). */
export function ruleBoundary(a: Candidate, b: Candidate): boolean {
  const gap = b.time - a.time;
  if (gap >= RULES.maxGapMs) return true;
  if (!hasGps(a) || !hasGps(b)) return gap >= RULES.noGpsGapMs;
  const km = distanceKm({ lat: a.lat!, lon: a.lon! }, { lat: b.lat!, lon: b.lon! });
  if (gap <= 0) return km > RULES.nearKm;
  if (km / (gap / HOUR) > RULES.maxSpeedKmh) return true;
  return km <= RULES.nearKm ? gap >= RULES.nearGapMs : gap >= RULES.farGapMs;
}

/**
 * Cuts `items` into events. Returns the items sorted (time, id) and the segments as [start, end)
 * index ranges into that order.
 */
export function segment(items: readonly Candidate[], links: Links = {}): { sorted: Candidate[]; segments: [number, number][] } {
  const steps = segmentSteps(items, links, Infinity);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** The same, yielding (for the caller to give the event loop a turn) whenever a slice has run `sliceMs`. */
export async function segmentInSlices(items: readonly Candidate[], links: Links, sliceMs: number): Promise<{ sorted: Candidate[]; segments: [number, number][] }> {
  const steps = segmentSteps(items, links, sliceMs);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}

function* segmentSteps(items: readonly Candidate[], links: Links, sliceMs: number): Generator<void, { sorted: Candidate[]; segments: [number, number][] }> {
  let sliceStart = performance.now();
  function* slice(): Generator<void, void> {
    if (performance.now() - sliceStart < sliceMs) return;
    yield;
    sliceStart = performance.now();
  }
  const sorted = yield* sortInSlices([...items], byTimeThenId, slice);
  const n = sorted.length;
  if (n === 0) return { sorted, segments: [] };
  // Positions by id, only for the person's links (most libraries have none: no map of every item then).
  const pos = new Map<string, number>();
  if (links.mustLink?.length || links.cannotLink?.length) {
    for (let i = 0; i < n; i++) {
      pos.set(sorted[i]!.id, i);
      yield* slice();
    }
  }
  // Edge i joins sorted[i] and sorted[i + 1].
  const edges = Math.max(0, n - 1);
  const boundary = new Uint8Array(edges);
  const locked = new Uint8Array(edges);
  const forced = new Uint8Array(edges);

  const lockSpan = (i: number, j: number) => {
    for (let e = Math.min(i, j); e < Math.max(i, j); e++) locked[e] = 1;
  };
  for (const [a, b] of links.mustLink ?? []) {
    const i = pos.get(a);
    const j = pos.get(b);
    if (i !== undefined && j !== undefined) lockSpan(i, j);
  }
  const stackSpan = new Map<string, [number, number]>();
  for (let i = 0; i < n; i++) {
    yield* slice();
    const c = sorted[i]!;
    if (!c.stackId) continue;
    const s = stackSpan.get(c.stackId);
    if (s) s[1] = i;
    else stackSpan.set(c.stackId, [i, i]);
  }
  for (const [i, j] of stackSpan.values()) lockSpan(i, j);
  for (const [a, b] of links.cannotLink ?? []) {
    const i = pos.get(a);
    const j = pos.get(b);
    if (i === undefined || j === undefined || i === j) continue;
    forced[Math.max(i, j) - 1] = 1;
  }

  for (let e = 0; e < edges; e++) {
    yield* slice();
    if (forced[e]) boundary[e] = 1;
    else if (!locked[e]) boundary[e] = ruleBoundary(sorted[e]!, sorted[e + 1]!) ? 1 : 0;
  }

  // The 36 h cap: split the weakest unlocked edge of each too-long piece until it fits.
  const pieces: [number, number][] = [];
  let start = 0;
  for (let e = 0; e <= edges; e++) {
    if (e === edges || boundary[e]) {
      pieces.push([start, e + 1]);
      start = e + 1;
    }
  }
  const out: [number, number][] = [];
  const stack = pieces.reverse();
  while (stack.length) {
    yield* slice();
    const [s, t] = stack.pop()!;
    if (sorted[t - 1]!.time - sorted[s]!.time <= RULES.maxDurationMs) {
      out.push([s, t]);
      continue;
    }
    let best = -1;
    let bestGap = -1;
    let bestKm = -1;
    for (let e = s; e < t - 1; e++) {
      if (locked[e]) continue;
      const a = sorted[e]!;
      const b = sorted[e + 1]!;
      const gap = b.time - a.time;
      const km = hasGps(a) && hasGps(b) ? distanceKm({ lat: a.lat!, lon: a.lon! }, { lat: b.lat!, lon: b.lon! }) : -1;
      // Strictly greater: the earliest edge wins ties.
      if (gap > bestGap || (gap === bestGap && km > bestKm)) {
        best = e;
        bestGap = gap;
        bestKm = km;
      }
    }
    if (best < 0) {
      out.push([s, t]); // everything locked: longer than the cap, kept whole
      continue;
    }
    stack.push([best + 1, t], [s, best + 1]);
  }
  return { sorted, segments: out };
}

/**
 * Duplicate detection (`duplicates-v2` of reference/original-system.md §3), as a pure function over the
 * assets of one repository: no SQL here, so the benchmark (scripts/bench/duplicates.ts) measures exactly
 * what the server runs.
 *
 * 1. Exact edges: assets sharing (owner, content hash, file size), each linked to the first of its run
 *    (distance 0, confidence 1). Any type: a copied video is as much a copy as a copied photo.
 * 2. Near edges: photos of one owner whose 64-bit pHashes differ in at most `threshold` (6) bits, found
 *    through four bucket passes, one per 16-bit chunk of the hash (multi-index hashing). Pigeonhole: if
 *    two hashes differ in at most 6 bits, some chunk differs in at most ⌊6/4⌋ = 1 bit. So each pass pairs
 *    a bucket with itself and with its 16 one-bit neighbours, and no pair within the threshold is missed.
 *    (The reference compared identical chunks only, which is exact up to 3 bits and misses pairs whose
 *    4–6 differing bits touch every chunk; probing the neighbours closes that gap for ~9× the checks, a
 *    second or two at a million photos: scripts/bench/duplicates.ts.) A pair is checked in the first
 *    chunk that brings it together only, so it is found once.
 *    Confidence = 1 − d/64. Pairs with the same content are left to step 1 (they are exact copies, so a
 *    group of copies says `exact`, not `mixed`).
 *    Only photos: a video's pHash is of its poster frame, and two clips starting on the same black frame
 *    are not copies of each other.
 * 3. Both skip pairs inside one media item (a RAW and its JPEG, a live photo's still and clip) or one
 *    stack (a burst is kept on purpose), and pairs a person already resolved (`resolvedTogether`).
 * 4. Union-find over the edges; components of ≥ 2 are groups; method `exact`, `phash` or `mixed`.
 * 5. Members are ordered by the keeper recommendation (`compareKeeper`): the first is the suggestion.
 */

export const DETECTION_VERSION = 'duplicates-v2';
export const PHASH_THRESHOLD = 6;

/** One asset as detection sees it. */
export interface DetectionItem {
  asset_id: string;
  owner_id: number;
  type: 'PHOTO' | 'VIDEO' | 'AUDIO';
  /** Content hash (BLAKE3), null until hashed. */
  hash: string | null;
  file_size: number;
  /** 16 hex digits, null when none was computed. */
  phash: string | null;
  media_item_id: string | null;
  stack_id: string | null;
  width: number | null;
  height: number | null;
  rating: number;
  /** Taken, else entered the catalog (ms). */
  capture_time: number;
}

export type EdgeMethod = 'exact' | 'phash';
export type GroupMethod = EdgeMethod | 'mixed';

export interface DetectedEdge {
  /** asset_id_a < asset_id_b. */
  asset_id_a: string;
  asset_id_b: string;
  method: EdgeMethod;
  distance: number;
  confidence: number;
}

export interface DetectedGroup {
  owner_id: number;
  method: GroupMethod;
  /** Members in keeper order: the first is the recommended keeper. */
  members: DetectionItem[];
  edges: DetectedEdge[];
}

export interface DetectOptions {
  threshold?: number;
  /** True when a person already resolved a group holding both (merged or dismissed): not proposed again. */
  resolvedTogether?: (a: DetectionItem, b: DetectionItem) => boolean;
  /** Called now and then while pairing, so a server can serve requests meanwhile (await setImmediate). */
  pause?: () => Promise<void>;
}

const CHUNKS = 4;
const BUCKETS = 1 << 16;

/** popcount of a 32-bit integer. */
function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * Keeper order (reference §3 "Keeper recommendation"): larger file first → higher rating → earlier
 * capture → smaller id. Our addition, a tie-break right after the size: more pixels first, so of two
 * files of one size the sharper one is kept (a household keeps the bigger picture). It decides only on
 * equal sizes; the reference's order stands otherwise.
 */
export function compareKeeper(a: DetectionItem, b: DetectionItem): number {
  if (a.file_size !== b.file_size) return b.file_size - a.file_size;
  const pa = (a.width ?? 0) * (a.height ?? 0);
  const pb = (b.width ?? 0) * (b.height ?? 0);
  if (pa !== pb) return pb - pa;
  if (a.rating !== b.rating) return b.rating - a.rating;
  if (a.capture_time !== b.capture_time) return a.capture_time - b.capture_time;
  // UUIDs in lower-case hex: string order is byte order.
  return a.asset_id < b.asset_id ? -1 : a.asset_id > b.asset_id ? 1 : 0;
}

class UnionFind {
  private readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(x: number): number {
    const p = this.parent;
    while (p[x] !== x) {
      p[x] = p[p[x]!]!;
      x = p[x]!;
    }
    return x;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

export async function detectDuplicateGroups(items: readonly DetectionItem[], opts: DetectOptions = {}): Promise<DetectedGroup[]> {
  const threshold = opts.threshold ?? PHASH_THRESHOLD;
  const n = items.length;
  const edges: { a: number; b: number; method: EdgeMethod; distance: number }[] = [];
  const allowed = (i: number, j: number): boolean => {
    const a = items[i]!;
    const b = items[j]!;
    if (a.owner_id !== b.owner_id) return false;
    if (a.media_item_id !== null && a.media_item_id === b.media_item_id) return false;
    if (a.stack_id !== null && a.stack_id === b.stack_id) return false;
    return !opts.resolvedTogether?.(a, b);
  };

  // 1. Exact: runs of (owner, hash, size), each linked to the run's first.
  const hashed: number[] = [];
  for (let i = 0; i < n; i++) if (items[i]!.hash) hashed.push(i);
  const exactKey = (i: number) => `${items[i]!.owner_id}\u0000${items[i]!.hash}\u0000${items[i]!.file_size}`;
  hashed.sort((x, y) => {
    const kx = exactKey(x);
    const ky = exactKey(y);
    return kx < ky ? -1 : kx > ky ? 1 : x - y;
  });
  for (let s = 0; s < hashed.length; ) {
    let e = s + 1;
    const key = exactKey(hashed[s]!);
    while (e < hashed.length && exactKey(hashed[e]!) === key) e++;
    for (let k = s + 1; k < e; k++) {
      // Linked to the first member it may be linked to (the first may share its media item or stack).
      for (let f = s; f < k; f++) {
        if (allowed(hashed[f]!, hashed[k]!)) {
          edges.push({ a: hashed[f]!, b: hashed[k]!, method: 'exact', distance: 0 });
          break;
        }
      }
    }
    s = e;
  }

  // 2. Near: photos with a pHash, bucketed on each 16-bit chunk (counting sort per chunk).
  const photos: number[] = [];
  for (let i = 0; i < n; i++) {
    const it = items[i]!;
    if (it.type === 'PHOTO' && it.phash && /^[0-9a-f]{16}$/i.test(it.phash)) photos.push(i);
  }
  const m = photos.length;
  const hi = new Uint32Array(m);
  const lo = new Uint32Array(m);
  for (let k = 0; k < m; k++) {
    const h = items[photos[k]!]!.phash!;
    hi[k] = parseInt(h.slice(0, 8), 16) >>> 0;
    lo[k] = parseInt(h.slice(8), 16) >>> 0;
  }
  const chunk = (k: number, c: number): number => (c < 2 ? (c === 0 ? hi[k]! >>> 16 : hi[k]! & 0xffff) : c === 2 ? lo[k]! >>> 16 : lo[k]! & 0xffff);
  const sameContent = (i: number, j: number) => items[i]!.hash !== null && items[i]!.hash === items[j]!.hash && items[i]!.file_size === items[j]!.file_size;
  const starts = new Int32Array(BUCKETS + 1);
  const order = new Int32Array(m);
  let sincePause = 0;
  for (let c = 0; c < CHUNKS; c++) {
    starts.fill(0);
    for (let k = 0; k < m; k++) starts[chunk(k, c) + 1]!++;
    for (let v = 0; v < BUCKETS; v++) starts[v + 1]! += starts[v]!;
    const fill = starts.slice(0, BUCKETS);
    for (let k = 0; k < m; k++) order[fill[chunk(k, c)]!++] = k;
    const check = (p: number, q: number) => {
      const d = popcount32(hi[p]! ^ hi[q]!) + popcount32(lo[p]! ^ lo[q]!);
      if (d > threshold) return;
      // Found in the first chunk that brings the pair together only.
      for (let c2 = 0; c2 < c; c2++) if (popcount32(chunk(p, c2) ^ chunk(q, c2)) <= 1) return;
      const i = photos[p]!;
      const j = photos[q]!;
      if (sameContent(i, j) || !allowed(i, j)) return;
      edges.push({ a: i, b: j, method: 'phash', distance: d });
    };
    for (let v = 0; v < BUCKETS; v++) {
      const from = starts[v]!;
      const to = starts[v + 1]!;
      if (from === to) continue;
      for (let x = from; x < to; x++) for (let y = x + 1; y < to; y++) check(order[x]!, order[y]!);
      for (let bit = 0; bit < 16; bit++) {
        const w = v ^ (1 << bit);
        if (w < v) continue;
        const wFrom = starts[w]!;
        const wTo = starts[w + 1]!;
        for (let x = from; x < to; x++) for (let y = wFrom; y < wTo; y++) check(order[x]!, order[y]!);
        sincePause += (to - from) * (wTo - wFrom);
      }
      sincePause += to - from;
      if (opts.pause && sincePause > 500_000) {
        sincePause = 0;
        await opts.pause();
      }
    }
  }

  // 3. Components.
  const uf = new UnionFind(n);
  for (const e of edges) uf.union(e.a, e.b);
  const byRoot = new Map<number, { members: Set<number>; edges: typeof edges }>();
  for (const e of edges) {
    const r = uf.find(e.a);
    let g = byRoot.get(r);
    if (!g) byRoot.set(r, (g = { members: new Set(), edges: [] }));
    g.members.add(e.a).add(e.b);
    g.edges.push(e);
  }
  const groups: DetectedGroup[] = [];
  for (const g of byRoot.values()) {
    const members = [...g.members].map((i) => items[i]!).sort(compareKeeper);
    const kinds = new Set(g.edges.map((e) => e.method));
    groups.push({
      owner_id: members[0]!.owner_id,
      method: kinds.size === 2 ? 'mixed' : [...kinds][0]!,
      members,
      edges: g.edges.map((e) => {
        const [a, b] = [items[e.a]!.asset_id, items[e.b]!.asset_id].sort() as [string, string];
        return { asset_id_a: a, asset_id_b: b, method: e.method, distance: e.distance, confidence: 1 - e.distance / 64 };
      }),
    });
  }
  return groups;
}

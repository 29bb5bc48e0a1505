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
 *    4–6 differing bits touch every chunk: recall 0.91 on the benchmark's near copies. Probing the
 *    neighbours closes that gap for ~17× the comparisons, read in bucket order, which costs ~2.6× the
 *    reference's time: scripts/bench/duplicates.ts has the figures.) A pair is checked in the first
 *    chunk that brings it together only, so it is found once.
 *    Confidence = 1 − d/64. Pairs with the same content are left to step 1 (they are exact copies, so a
 *    group of copies says `exact`, not `mixed`).
 *    Only photos: a video's pHash is of its poster frame, and two clips starting on the same black frame
 *    are not copies of each other.
 * 3. Window edges (issue 24: the pHash is blind to crops; adapters/media/phash.ts `phashWindowsFromRaw`):
 *    a photo whose whole pHash is at most `windowThreshold` (6) bits from one of the nine window pHashes of
 *    another photo of the owner is a cropped copy of it (a crop of up to ~10 % from any sides). Candidates
 *    share one identical 16-bit chunk with the window: exact up to 3 bits by pigeonhole and most of the
 *    4–6-bit ones, at ~9 × 4 bucket meetings per photo instead of the 9 × 68 an exact search would cost.
 *    Run as a sorted join: per chunk the windows are counting-sorted on that chunk like the whole frames,
 *    and each bucket's windows meet its frames, so memory is read in sequence (looking each window's
 *    bucket up in turn missed the cache 9 × 4 times per photo: 3.3× today's time at 1M). The pairs compared,
 *    and so the edges, are the same as per-window lookups give. A window string that is not 144 hex
 *    digits is ignored (the photo is compared by its whole frame only). The benchmark measures the recall
 *    this leaves and the time it adds (scripts/bench/duplicates.ts).
 * 4. Capture neighbours (burst, HDR, exposure bracketing, a retake): two photos of the owner taken at most
 *    `burstWindowMs` (60 s) apart by the same camera (per their EXIF; a photo without a capture time never,
 *    one without a camera model is taken as the same camera) are linked at a looser distance,
 *    `burstThreshold` (10) bits, over whole frames and windows alike. Decided for the household: shots of one
 *    scene seconds apart are the copies a person wants to pick one of, while two different scenes a minute
 *    apart stay apart (the corpus's two Nikon P6000 street shots 40 s apart are 20+ bits apart).
 *    Edges of steps 3 and 4 say `phash` too (perceptual-hash evidence, as the contract names it); their
 *    distance is the smallest of the compared pHashes, confidence 1 − d/64.
 * 5. All skip pairs inside one media item (a RAW and its JPEG, a live photo's still and clip) or one
 *    stack (a burst is kept on purpose), and pairs a person already resolved (`resolvedTogether`).
 * 6. Union-find over the edges; components of ≥ 2 are groups; method `exact`, `phash` or `mixed`.
 * 7. Members are ordered by the keeper recommendation (`compareKeeper`): the first is the suggestion.
 */

import { PHASH_VERSION } from '../../adapters/media/phash.ts';

export const DETECTION_VERSION = 'duplicates-v2';
/** The pHash recipe detection compares (adapters/media/phash.ts); hashes of any other are left out. */
const CURRENT_PHASH = PHASH_VERSION;
export const PHASH_THRESHOLD = 6;
export const WINDOW_THRESHOLD = 6;
export const BURST_THRESHOLD = 10;
export const BURST_WINDOW_MS = 60_000;
/** Window pHashes per photo (adapters/media/phash.ts PHASH_WINDOWS), 16 hex digits each. */
const WINDOWS = 9;

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
  /** The nine window pHashes, 144 hex digits; null when not computed (yet). */
  phash_windows: string | null;
  /**
   * The recipe both were made by (adapters/media/phash.ts PHASH_VERSION). Two recipes give a photo hashes a
   * few bits apart, so only hashes of the current one are compared: a photo whose hashes are older takes
   * part through its content hash only until the pHash backfill has recomputed them (it then queues a
   * detection of the repository).
   */
  phash_version: number;
  /** EXIF capture time (ms), null when the file has none (not the upload-time fallback of capture_time). */
  taken_time: number | null;
  /** Camera model from EXIF, null when unknown. */
  camera: string | null;
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
  windowThreshold?: number;
  burstThreshold?: number;
  burstWindowMs?: number;
  /** True when a person already resolved a group holding both (merged or dismissed): not proposed again. */
  resolvedTogether?: (a: DetectionItem, b: DetectionItem) => boolean;
  /** Called now and then while pairing, so a server can serve requests meanwhile (await setImmediate). */
  pause?: () => Promise<void>;
}

const CHUNKS = 4;
/** Hex digit value by char code (ASCII), −1 for anything else. */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[65 + c] = HEX[97 + c] = 10 + c;
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
  const windowThreshold = opts.windowThreshold ?? WINDOW_THRESHOLD;
  const burstThreshold = opts.burstThreshold ?? BURST_THRESHOLD;
  const burstWindowMs = opts.burstWindowMs ?? BURST_WINDOW_MS;
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

  // 1. Exact: runs of (owner, hash, size), each linked to the run's first (in input order). Bucketed on
  // 48 bits of the hash (a number key: a Map of numbers is several times faster than one of strings),
  // then split on the whole key.
  const runs = new Map<number, number | number[]>();
  for (let i = 0; i < n; i++) {
    const h = items[i]!.hash;
    if (!h || h.length < 12) continue;
    const key = parseInt(h.slice(0, 12), 16);
    if (Number.isNaN(key)) continue;
    const seen = runs.get(key);
    if (seen === undefined) runs.set(key, i);
    else if (typeof seen === 'number') runs.set(key, [seen, i]);
    else seen.push(i);
  }
  const sameContent = (i: number, j: number) => {
    const a = items[i]!;
    const b = items[j]!;
    return a.hash !== null && a.hash === b.hash && a.file_size === b.file_size;
  };
  for (const bucket of runs.values()) {
    if (typeof bucket === 'number') continue;
    const pending = [...bucket];
    while (pending.length > 1) {
      const head = pending[0]!;
      const run = pending.filter((i) => sameContent(head, i) && items[i]!.owner_id === items[head]!.owner_id);
      for (let k = 1; k < run.length; k++) {
        // Linked to the first member it may be linked to (the first may share its media item or stack).
        for (let f = 0; f < k; f++) {
          if (allowed(run[f]!, run[k]!)) {
            edges.push({ a: run[f]!, b: run[k]!, method: 'exact', distance: 0 });
            break;
          }
        }
      }
      const rest = pending.filter((i) => !run.includes(i));
      pending.length = 0;
      pending.push(...rest);
    }
  }
  runs.clear();

  // 2. Near: photos with a pHash, bucketed on each 16-bit chunk (counting sort per chunk).
  const photos: number[] = [];
  const hiList: number[] = [];
  const loList: number[] = [];
  for (let i = 0; i < n; i++) {
    const it = items[i]!;
    if (it.type !== 'PHOTO' || !it.phash || it.phash.length !== 16 || it.phash_version !== CURRENT_PHASH) continue;
    const h = parseInt(it.phash.slice(0, 8), 16);
    const l = parseInt(it.phash.slice(8), 16);
    if (Number.isNaN(h) || Number.isNaN(l)) continue;
    photos.push(i);
    hiList.push(h >>> 0);
    loList.push(l >>> 0);
  }
  const m = photos.length;
  const hi = Uint32Array.from(hiList);
  const lo = Uint32Array.from(loList);
  // Window hashes: photo k's window w at k * WINDOWS + w; hasWin[k] = 1 when all nine parsed. Decoded digit
  // by digit through a table (slicing and parseInt-ing nine million substrings cost as much at 1M as a
  // bucket pass); a string with any non-hex digit is ignored.
  const winHi = new Uint32Array(m * WINDOWS);
  const winLo = new Uint32Array(m * WINDOWS);
  const hasWin = new Uint8Array(m);
  let windowed = 0;
  for (let k = 0; k < m; k++) {
    const w = items[photos[k]!]!.phash_windows;
    if (!w || w.length !== 16 * WINDOWS) continue;
    let bad = 0;
    for (let x = 0; x < 2 * WINDOWS; x++) {
      let v = 0;
      for (let j = 8 * x, end = j + 8; j < end; j++) {
        const ch = w.charCodeAt(j);
        const digit = ch < 128 ? HEX[ch]! : -1;
        bad |= digit;
        v = (v << 4) | (digit & 15);
      }
      if (x & 1) winLo[k * WINDOWS + (x >> 1)] = v >>> 0;
      else winHi[k * WINDOWS + (x >> 1)] = v >>> 0;
    }
    if (bad < 0) continue;
    hasWin[k] = 1;
    windowed++;
  }
  const wholeDistance = (p: number, q: number) => popcount32(hi[p]! ^ hi[q]!) + popcount32(lo[p]! ^ lo[q]!);
  /** Smallest distance between a window of p and the whole frame of q (65 when p has no windows). */
  const windowDistance = (p: number, q: number) => {
    if (!hasWin[p]) return 65;
    let best = 65;
    for (let x = p * WINDOWS, end = x + WINDOWS; x < end; x++) best = Math.min(best, popcount32(winHi[x]! ^ hi[q]!) + popcount32(winLo[x]! ^ lo[q]!));
    return best;
  };
  /** Window and capture-neighbour pairs (photo indices p < q) → distance: found more than once, kept once. */
  const extra = new Map<number, number>();
  const addExtra = (p: number, q: number, d: number) => {
    if (wholeDistance(p, q) <= threshold) return; // the whole-frame pass has it
    const key = p < q ? p * m + q : q * m + p;
    const seen = extra.get(key);
    if (seen === undefined || d < seen) extra.set(key, d);
  };
  const chunks = [new Uint16Array(m), new Uint16Array(m), new Uint16Array(m), new Uint16Array(m)] as const;
  for (let k = 0; k < m; k++) {
    chunks[0][k] = hi[k]! >>> 16;
    chunks[1][k] = hi[k]! & 0xffff;
    chunks[2][k] = lo[k]! >>> 16;
    chunks[3][k] = lo[k]! & 0xffff;
  }
  const starts = new Int32Array(BUCKETS + 1);
  const order = new Int32Array(m);
  const hiS = new Uint32Array(m);
  const loS = new Uint32Array(m);
  // The windows in bucket order of the current chunk (photos without windows left out).
  const W = windowed * WINDOWS;
  const wStarts = new Int32Array(BUCKETS + 1);
  const wHiS = new Uint32Array(W);
  const wLoS = new Uint32Array(W);
  const wPhoto = new Int32Array(W);
  let lastPause = performance.now();
  for (let c = 0; c < CHUNKS; c++) {
    const ch = chunks[c]!;
    starts.fill(0);
    for (let k = 0; k < m; k++) starts[ch[k]! + 1]!++;
    for (let v = 0; v < BUCKETS; v++) starts[v + 1]! += starts[v]!;
    const fill = starts.slice(0, BUCKETS);
    for (let k = 0; k < m; k++) order[fill[ch[k]!]!++] = k;
    // The hashes in bucket order: the inner loop reads memory in sequence instead of jumping around a
    // million-entry array (cache misses were most of the time at 1M).
    for (let x = 0; x < m; x++) {
      hiS[x] = hi[order[x]!]!;
      loS[x] = lo[order[x]!]!;
    }
    const pair = (p: number, q: number, d: number) => {
      // Found in the first chunk that brings the pair together only.
      for (let c2 = 0; c2 < c; c2++) if (popcount32(chunks[c2]![p]! ^ chunks[c2]![q]!) <= 1) return;
      const i = photos[p]!;
      const j = photos[q]!;
      if (sameContent(i, j) || !allowed(i, j)) return;
      edges.push({ a: i, b: j, method: 'phash', distance: d });
    };
    for (let v = 0; v < BUCKETS; v++) {
      const from = starts[v]!;
      const to = starts[v + 1]!;
      if (from === to) continue;
      for (let bit = -1; bit < 16; bit++) {
        // bit −1: the bucket with itself; else its neighbour one bit away (each neighbour pair once).
        const w = bit < 0 ? v : v ^ (1 << bit);
        if (w < v) continue;
        const wTo = starts[w + 1]!;
        for (let x = from; x < to; x++) {
          const hp = hiS[x]!;
          const lp = loS[x]!;
          for (let y = bit < 0 ? x + 1 : starts[w]!; y < wTo; y++) {
            const d = popcount32(hp ^ hiS[y]!) + popcount32(lp ^ loS[y]!);
            if (d <= threshold) pair(order[x]!, order[y]!, d);
          }
        }
      }
      // Hand the event loop back every ~20 ms of work (a server keeps answering during a long run).
      if (opts.pause && (v & 255) === 0 && performance.now() - lastPause > 20) {
        await opts.pause();
        lastPause = performance.now();
      }
    }
    // Windows: each window meets the whole frames of its own chunk-c bucket (identical chunk). Both sides
    // in bucket order (the windows counting-sorted on chunk c like the frames), so the pass reads memory in
    // sequence: looking each window's bucket up in turn jumped around the frame arrays 9 × 4 times per
    // photo, and those cache misses were most of the time the windows added at 1M.
    if (windowed) {
      const shift = c === 0 || c === 2 ? 16 : 0;
      const wSrc = c < 2 ? winHi : winLo;
      wStarts.fill(0);
      for (let k = 0; k < m; k++) {
        if (!hasWin[k]) continue;
        for (let x = k * WINDOWS, end = x + WINDOWS; x < end; x++) wStarts[((wSrc[x]! >>> shift) & 0xffff) + 1]!++;
      }
      for (let v = 0; v < BUCKETS; v++) wStarts[v + 1]! += wStarts[v]!;
      const wFill = wStarts.slice(0, BUCKETS);
      for (let k = 0; k < m; k++) {
        if (!hasWin[k]) continue;
        for (let x = k * WINDOWS, end = x + WINDOWS; x < end; x++) {
          const z = wFill[(wSrc[x]! >>> shift) & 0xffff]!++;
          wHiS[z] = winHi[x]!;
          wLoS[z] = winLo[x]!;
          wPhoto[z] = k;
        }
      }
      for (let v = 0; v < BUCKETS; v++) {
        const from = starts[v]!;
        const to = starts[v + 1]!;
        const wFrom = wStarts[v]!;
        const wTo = wStarts[v + 1]!;
        if (from === to || wFrom === wTo) continue;
        for (let y = from; y < to; y++) {
          const hq = hiS[y]!;
          const lq = loS[y]!;
          for (let z = wFrom; z < wTo; z++) {
            const d = popcount32(hq ^ wHiS[z]!) + popcount32(lq ^ wLoS[z]!);
            if (d <= windowThreshold && wPhoto[z] !== order[y]) addExtra(wPhoto[z]!, order[y]!, d);
          }
        }
        if (opts.pause && (v & 255) === 0 && performance.now() - lastPause > 20) {
          await opts.pause();
          lastPause = performance.now();
        }
      }
    }
  }

  // 4. Capture neighbours: photos with a capture time, by owner then time; each against the ones up to
  // burstWindowMs later.
  // Sorted on typed copies of owner and time (a comparator reading the items' objects cost seconds at 1M).
  const timed: number[] = [];
  const ownerOf = new Float64Array(m);
  const takenOf = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const it = items[photos[k]!]!;
    if (it.taken_time === null) continue;
    timed.push(k);
    ownerOf[k] = it.owner_id;
    takenOf[k] = it.taken_time;
  }
  timed.sort((p, q) => ownerOf[p]! - ownerOf[q]! || takenOf[p]! - takenOf[q]!);
  for (let s = 0; s < timed.length; s++) {
    const p = timed[s]!;
    for (let t = s + 1; t < timed.length; t++) {
      const q = timed[t]!;
      if (ownerOf[q] !== ownerOf[p] || takenOf[q]! - takenOf[p]! > burstWindowMs) break;
      const ca = items[photos[p]!]!.camera;
      const cb = items[photos[q]!]!.camera;
      if (ca !== null && cb !== null && ca !== cb) continue;
      const d = Math.min(wholeDistance(p, q), windowDistance(p, q), windowDistance(q, p));
      if (d <= burstThreshold) addExtra(p, q, d);
    }
  }
  for (const [key, d] of extra) {
    const p = Math.floor(key / m);
    const q = key - p * m;
    const i = photos[p]!;
    const j = photos[q]!;
    if (sameContent(i, j) || !allowed(i, j)) continue;
    edges.push({ a: i, b: j, method: 'phash', distance: d });
  }

  // 6. Components.
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

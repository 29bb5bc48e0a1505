/**
 * `npm run bench:duplicates`: duplicate detection time at 100k and 1M assets with synthetic hashes,
 * against baselines measured in the same run.
 *
 * The library: 4 owners; ~94 % unique photos (random 64-bit pHashes, random content hashes), ~4 % near
 * copies of another photo of the same owner (1–6 random bits of its pHash flipped, other bytes), ~2 %
 * exact copies (same content hash, size and pHash). What is timed is `detectDuplicateGroups`
 * (features/duplicates/detect.ts), exactly what the server runs after reading the repository.
 *
 * Baselines (same data, same machine, same run):
 * - `reference buckets`: the reference's pairing (reference/original-system.md §3): candidates share one
 *   identical 16-bit chunk. Faster than ours, but it misses near copies whose 4–6 differing bits touch
 *   all four chunks: its recall is printed beside its time.
 * - `BK-tree`: the classic metric tree for Hamming radius queries (exact, like ours): built over every
 *   hash, queried with radius 6 for a sample of them, query time extrapolated to all.
 * - `all pairs`: every pair compared, on a sample, extrapolated by (N/sample)².
 * Recall is over the planted near and exact pairs (accidental pairs of random 64-bit hashes within 6
 * bits are vanishingly rare and counted as found when found).
 *
 * Usage: npm run bench:duplicates [-- --sizes 100000,1000000]
 *
 * Figures of 2026-11-26 (the shared 2-core machine under a load average of ~12, so absolute times are
 * several times what a quiet machine gives; the ratios are of one run):
 *
 * |                                   | 100k              | 1M                 |
 * |-----------------------------------|-------------------|--------------------|
 * | detectDuplicateGroups (recall 1)  | 3.1 s             | 24.0 s             |
 * | reference buckets                 | 0.8 s, recall 0.910 | 9.1 s, recall 0.912 |
 * | all pairs (sample, extrapolated)  | 84 s (27×)        | 14 935 s (622×)    |
 * | BK-tree (sampled queries)         | 5 532 s           | ~1.4·10⁶ s         |
 *
 * The BK-tree loses to all pairs: at radius 6 of 64 bits a query visits most of the tree.
 *
 * With window pHashes and capture neighbours (issue 24), 1M, one run of 2026-11-27 on the same loaded
 * machine (load average 12–18; `--sizes 1000000 --sources 0`; the quality bench `--sizes '' --sources 20`
 * ran beside it):
 *
 * |                                                   | 1M                                   |
 * |---------------------------------------------------|--------------------------------------|
 * | today's detection (whole-frame pHash only)        | 43.0 s                               |
 * | detectDuplicateGroups, windows per-window lookups | 523 s, 3.29× today's (an earlier run) |
 * | detectDuplicateGroups, windows as a sorted join   | 85.5 s, 1.99× today's, recall 0.997  |
 * | reference buckets                                 | 2.4 s, recall 0.779                  |
 * | BK-tree (sampled queries)                         | ~4.7·10⁸ ms                          |
 *
 * Quality (20 sources, 504 photos): today precision 1.000 recall 0.610; now precision 1.000 recall 0.996
 * (crops 219/220, exposure/HDR, re-framing, copies and burst neighbours all found; real pairs 10/10).
 *
 * pHash version 2 (issue 25: the hashes in JavaScript, an area average instead of libvips' lanczos3;
 * adapters/media/phash.ts), quality only (`--sizes ''`, 40 sources, 977 photos), 2026-11-29, before → after:
 * whole-frame only precision 1.000 → 1.000, recall 0.576 → 0.580; with windows and capture neighbours
 * precision 1.000 → 1.000, recall 0.998 → 0.996 (crops 439/440 → 438/440; exposure/HDR, re-framing, copies
 * and burst neighbours all found both times; real pairs 10/10 both times). The thresholds stand.
 */
import crypto from 'node:crypto';
import { PHASH_VERSION } from '../../server/src/adapters/media/phash.ts';
import { detectDuplicateGroups, type DetectionItem } from '../../server/src/features/duplicates/detect.ts';
import { seededRandom } from '../../test/shared/seeded-random.ts';
import { benchQuality } from './duplicates-quality.ts';

const THRESHOLD = 6;
const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (flag('--sizes') ?? '100000,1000000').split(',').filter(Boolean).map(Number);
const SOURCES = Number(flag('--sources') ?? 40);

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

interface Library {
  items: DetectionItem[];
  hi: Uint32Array;
  lo: Uint32Array;
  owner: Uint8Array;
  /** Planted pairs (index a < b): near copies and exact copies. */
  planted: { a: number; b: number; exact: boolean }[];
}

function makeLibrary(n: number, seed: number): Library {
  const rnd = seededRandom(seed);
  const u32 = () => Math.floor(rnd() * 0x100000000) >>> 0;
  const hex8 = (x: number) => x.toString(16).padStart(8, '0');
  const items: DetectionItem[] = [];
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const owner = new Uint8Array(n);
  const planted: Library['planted'] = [];
  const windows: string[] = [];
  const clock = [0, 0, 0, 0].map((_, o) => Date.parse('2020-01-01T00:00:00Z') + o * 1e9);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    let h: number;
    let l: number;
    let o: number;
    let hash: string;
    let size: number;
    if (i > 0 && r < 0.04) {
      const base = Math.floor(rnd() * i);
      o = owner[base]!;
      h = hi[base]!;
      l = lo[base]!;
      const flips = 1 + Math.floor(rnd() * THRESHOLD);
      const used = new Set<number>();
      while (used.size < flips) used.add(Math.floor(rnd() * 64));
      for (const bit of used) {
        if (bit < 32) h = (h ^ (1 << bit)) >>> 0;
        else l = (l ^ (1 << (bit - 32))) >>> 0;
      }
      hash = crypto.createHash('sha256').update(`near${i}`).digest('hex');
      size = 100_000 + Math.floor(rnd() * 5_000_000);
      planted.push({ a: base, b: i, exact: false });
    } else if (i > 0 && r < 0.05) {
      // A cropped copy: its whole-frame pHash is one of its original's windows, 0–4 bits off.
      const base = Math.floor(rnd() * i);
      o = owner[base]!;
      const w = Math.floor(rnd() * 9);
      h = parseInt(windows[base]!.slice(16 * w, 16 * w + 8), 16);
      l = parseInt(windows[base]!.slice(16 * w + 8, 16 * w + 16), 16);
      for (let f = Math.floor(rnd() * 5); f > 0; f--) {
        const bit = Math.floor(rnd() * 64);
        if (bit < 32) h = (h ^ (1 << bit)) >>> 0;
        else l = (l ^ (1 << (bit - 32))) >>> 0;
      }
      hash = crypto.createHash('sha256').update(`crop${i}`).digest('hex');
      size = 100_000 + Math.floor(rnd() * 5_000_000);
      planted.push({ a: base, b: i, exact: false });
    } else if (i > 0 && r < 0.07) {
      const base = Math.floor(rnd() * i);
      o = owner[base]!;
      h = hi[base]!;
      l = lo[base]!;
      hash = items[base]!.hash!;
      size = items[base]!.file_size;
      planted.push({ a: base, b: i, exact: true });
    } else {
      o = Math.floor(rnd() * 4);
      h = u32();
      l = u32();
      hash = crypto.createHash('sha256').update(`unique${i}`).digest('hex');
      size = 100_000 + Math.floor(rnd() * 5_000_000);
    }
    hi[i] = h;
    lo[i] = l;
    owner[i] = o;
    // Nine windows: random hashes (a photo's windows are ~6–14 bits from its whole frame, other photos' ~32).
    let win = '';
    for (let w = 0; w < 9; w++) win += hex8(u32()) + hex8(u32());
    windows.push(win);
    // Each owner's camera shoots every 1 s – 10 min (so bursts of neighbours within 60 s happen).
    clock[o] = clock[o]! + 1_000 + Math.floor(rnd() * 600_000);
    items.push({
      asset_id: `00000000-0000-7000-8000-${i.toString(16).padStart(12, '0')}`,
      owner_id: o + 1,
      type: 'PHOTO',
      hash,
      file_size: size,
      phash: hex8(h) + hex8(l),
      phash_windows: win,
      phash_version: PHASH_VERSION,
      taken_time: clock[o]!,
      camera: `Camera ${o}`,
      media_item_id: null,
      stack_id: null,
      width: 4000,
      height: 3000,
      rating: 0,
      capture_time: i,
    });
  }
  return { items, hi, lo, owner, planted };
}

const dist = (lib: Library, a: number, b: number) => popcount32(lib.hi[a]! ^ lib.hi[b]!) + popcount32(lib.lo[a]! ^ lib.lo[b]!);

/** Recall over the planted pairs, given the found pairs as a connectivity (union-find of groups). */
function recallOfGroups(lib: Library, groupOf: Int32Array): number {
  let found = 0;
  for (const p of lib.planted) if (groupOf[p.a]! >= 0 && groupOf[p.a] === groupOf[p.b]) found++;
  return found / lib.planted.length;
}

function recallOfPairs(lib: Library, pairs: Set<number>, n: number): number {
  let found = 0;
  for (const p of lib.planted) if (p.exact || pairs.has(p.a * n + p.b) || pairs.has(p.b * n + p.a)) found++;
  return found / lib.planted.length;
}

/** The reference's candidate generation: one identical 16-bit chunk, then the distance check. */
function referenceBuckets(lib: Library): Set<number> {
  const n = lib.items.length;
  const pairs = new Set<number>();
  const starts = new Int32Array(65537);
  const order = new Int32Array(n);
  const chunk = (k: number, c: number) => (c === 0 ? lib.hi[k]! >>> 16 : c === 1 ? lib.hi[k]! & 0xffff : c === 2 ? lib.lo[k]! >>> 16 : lib.lo[k]! & 0xffff);
  for (let c = 0; c < 4; c++) {
    starts.fill(0);
    for (let k = 0; k < n; k++) starts[chunk(k, c) + 1]!++;
    for (let v = 0; v < 65536; v++) starts[v + 1]! += starts[v]!;
    const fill = starts.slice(0, 65536);
    for (let k = 0; k < n; k++) order[fill[chunk(k, c)]!++] = k;
    for (let v = 0; v < 65536; v++) {
      for (let x = starts[v]!; x < starts[v + 1]!; x++) {
        for (let y = x + 1; y < starts[v + 1]!; y++) {
          const p = order[x]!;
          const q = order[y]!;
          if (lib.owner[p] === lib.owner[q] && dist(lib, p, q) <= THRESHOLD) pairs.add(Math.min(p, q) * n + Math.max(p, q));
        }
      }
    }
  }
  return pairs;
}

/** A BK-tree over (hi, lo): children indexed by distance 0..64. */
class BkTree {
  private readonly child: Int32Array[] = [];
  private root = -1;
  constructor(private readonly lib: Library) {}
  add(k: number): void {
    if (this.root < 0) {
      this.root = k;
      this.child[k] = new Int32Array(65).fill(-1);
      return;
    }
    let node = this.root;
    for (;;) {
      const d = dist(this.lib, node, k);
      const next = this.child[node]![d]!;
      if (next < 0) {
        this.child[node]![d] = k;
        this.child[k] = new Int32Array(65).fill(-1);
        return;
      }
      node = next;
    }
  }
  query(k: number, radius: number, out: number[]): void {
    const stack = [this.root];
    while (stack.length) {
      const node = stack.pop()!;
      const d = dist(this.lib, node, k);
      if (d <= radius && node !== k) out.push(node);
      const kids = this.child[node]!;
      for (let e = Math.max(0, d - radius); e <= Math.min(64, d + radius); e++) if (kids[e]! >= 0) stack.push(kids[e]!);
    }
  }
}

function ms(t0: number) {
  return performance.now() - t0;
}

async function benchSize(n: number) {
  const lib = makeLibrary(n, 2026 + n);
  console.log(`\n## ${n.toLocaleString('en')} assets (${lib.planted.filter((p) => !p.exact).length.toLocaleString('en')} near copies, ${lib.planted.filter((p) => p.exact).length.toLocaleString('en')} exact copies)`);

  // Today's detection (main before issue 24): the same function without window hashes and capture times.
  const runs = n <= 200_000 ? 3 : 1;
  const todayItems = lib.items.map((it) => ({ ...it, phash_windows: null, taken_time: null }));
  const todayTimes: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    await detectDuplicateGroups(todayItems);
    todayTimes.push(ms(t0));
  }
  todayItems.length = 0;
  const today = todayTimes.sort((a, b) => a - b)[Math.floor(todayTimes.length / 2)]!;
  console.log(`today's detection (whole-frame pHash only): ${today.toFixed(0)} ms (median of ${runs})`);

  // Ours.
  const times: number[] = [];
  let groups: Awaited<ReturnType<typeof detectDuplicateGroups>> = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    groups = await detectDuplicateGroups(lib.items);
    times.push(ms(t0));
  }
  const ours = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  const index = new Map(lib.items.map((it, i) => [it.asset_id, i]));
  const groupOf = new Int32Array(n).fill(-1);
  groups.forEach((g, gi) => g.members.forEach((m) => (groupOf[index.get(m.asset_id)!] = gi)));
  const oursRecall = recallOfGroups(lib, groupOf);
  console.log(
    `detectDuplicateGroups (whole frames exact ≤ ${THRESHOLD}, windows, capture neighbours): ${ours.toFixed(0)} ms (median of ${runs}), ${groups.length.toLocaleString('en')} groups, recall ${oursRecall.toFixed(4)}; ${(ours / today).toFixed(2)}× today's time (budget 2×)`,
  );

  // Reference buckets.
  let t0 = performance.now();
  const refPairs = referenceBuckets(lib);
  const ref = ms(t0);
  console.log(`reference buckets (identical chunk only): ${ref.toFixed(0)} ms, recall ${recallOfPairs(lib, refPairs, n).toFixed(4)} (misses near copies whose flipped bits touch all four chunks)`);

  // BK-tree: build everything, query a sample, extrapolate the queries.
  t0 = performance.now();
  const tree = new BkTree(lib);
  for (let k = 0; k < n; k++) tree.add(k);
  const build = ms(t0);
  const sample = Math.min(n, 200);
  const rnd = seededRandom(7);
  t0 = performance.now();
  const out: number[] = [];
  for (let s = 0; s < sample; s++) tree.query(Math.floor(rnd() * n), THRESHOLD, out);
  const perQuery = ms(t0) / sample;
  const bk = build + perQuery * n;
  console.log(`BK-tree (exact): build ${build.toFixed(0)} ms + ${n.toLocaleString('en')} queries × ${perQuery.toFixed(3)} ms (from ${sample} sampled) = ${bk.toFixed(0)} ms`);

  // All pairs on a sample, extrapolated.
  const m = Math.min(n, 20_000);
  t0 = performance.now();
  let hits = 0;
  for (let a = 0; a < m; a++) for (let b = a + 1; b < m; b++) if (lib.owner[a] === lib.owner[b] && dist(lib, a, b) <= THRESHOLD) hits++;
  const all = ms(t0) * (n / m) ** 2;
  console.log(`all pairs: ${m.toLocaleString('en')}² sample in ${(all / (n / m) ** 2).toFixed(0)} ms (${hits} hits) → ${all.toFixed(0)} ms extrapolated`);

  const strongest = Math.min(bk, all);
  console.log(
    `ratio: strongest exact baseline (${bk <= all ? 'BK-tree' : 'all pairs'}) / ours = ${(strongest / ours).toFixed(1)}×; reference buckets / ours = ${(ref / ours).toFixed(2)}× (at lower recall)`,
  );
}

console.log(`# duplicate detection benchmark (node ${process.version}, threshold ${THRESHOLD} bits)`);
if (SOURCES > 0) await benchQuality(SOURCES);
for (const n of SIZES) await benchSize(n);

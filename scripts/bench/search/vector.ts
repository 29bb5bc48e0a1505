/**
 * Section "vector" of `npm run bench:search`: the vector index (server/src/features/semantic/vector-index) on
 * synthetic clustered CLIP-like vectors (clustered-vectors.ts) in a real catalog, per size:
 * build time and the event loop's longest stall while it builds, memory (the index's own bytes and the
 * process RSS it adds), top-20 p50/p95 and recall@20 against the exact answer with no filter, 30% of assets
 * allowed (a seeded coin per asset, like an owner or a tag) and 1% (one contiguous rowid range, like a date
 * range); then the candidates and the baseline (candidates.ts) on the same queries.
 * Catalogs are cached in .tmp/bench-search/ (keyed by generator version and size); `--rebuild` remakes them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { VectorIndex } from '../../../server/src/features/semantic/vector-index/index.ts';
import { clusteredQueries, clusteredSet, type ClusteredSet } from './clustered-vectors.ts';
import { sqliteBruteForce, sqliteVecBits, usearchHnsw } from './candidates.ts';
import { cosinesOf, exactTop, recall } from './truth.ts';
import { mb, ms, percentile, rss, withLoopStall } from './stats.ts';
import { BENCH_MODEL, openCatalog, writeSet } from './vector-catalog.ts';

const GENERATOR_VERSION = 1;
const K = 20;

export interface VectorBenchOptions {
  sizes: number[];
  queries: number;
  cacheDir: string;
  rebuild: boolean;
  /** which candidates to measure besides the index: 'bits', 'hnsw', 'brute' */
  candidates: string[];
  print: (line: string) => void;
}

function filters(set: ClusteredSet): { name: string; share: number; allowed: Uint8Array }[] {
  const all = new Uint8Array(set.assets + 1).fill(1);
  all[0] = 0;
  const thirty = new Uint8Array(set.assets + 1);
  let s = 5;
  for (let r = 1; r <= set.assets; r++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    thirty[r] = s / 4294967296 < 0.3 ? 1 : 0;
  }
  const one = new Uint8Array(set.assets + 1);
  const from = Math.floor(set.assets * 0.37);
  one.fill(1, from, from + Math.ceil(set.assets * 0.01));
  return [
    { name: 'no filter', share: 1, allowed: all },
    { name: '30% allowed', share: 0.3, allowed: thirty },
    { name: '1% allowed', share: 0.01, allowed: one },
  ];
}

const label = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

export async function vectorSection(opts: VectorBenchOptions): Promise<void> {
  const { print } = opts;
  for (const size of opts.sizes) {
    print(`\n== vector index, ${label(size)} vectors (512-d, clustered, seeded), top-${K} ==`);
    let t = performance.now();
    const set = clusteredSet({ vectors: size });
    print(`generated ${size} vectors for ${set.assets} assets (${set.assets < size ? `${size - set.assets} extra video frames` : 'photos'}) in ${ms(performance.now() - t)} ms`);
    fs.mkdirSync(opts.cacheDir, { recursive: true });
    const file = path.join(opts.cacheDir, `vectors-g${GENERATOR_VERSION}-${size}.sqlite3`);
    if (opts.rebuild) for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    const fresh = !fs.existsSync(file);
    const db = openCatalog(file);
    if (fresh) {
      t = performance.now();
      writeSet(db, set);
      print(`catalog written in ${ms((performance.now() - t) / 1000)} s: ${file}`);
    }
    const queries = clusteredQueries(set, opts.queries);
    const fs_ = filters(set);

    // Ground truth first (it is the slow part at 1M: one JS pass of 512·N per query).
    t = performance.now();
    const truth = queries.map((q) => {
      const cos = cosinesOf(set, q);
      return fs_.map((f) => exactTop(set, cos, f.allowed, K));
    });
    print(`exact answers for ${queries.length} queries × ${fs_.length} filters in ${ms((performance.now() - t) / 1000)} s`);

    const rssBefore = rss();
    const built = await withLoopStall(() => VectorIndex.open(db, BENCH_MODEL));
    const index = built.value;
    const rssAfter = rss();
    const st = index.stats();
    print(
      `VectorIndex (${st.kind}): built from SQLite in ${ms(built.ms / 1000)} s (CPU ${ms(built.cpuMs / 1000)} s), event-loop delay while building: max ${ms(built.stallMs)} ms, p99 ${ms(built.stallP99Ms)} ms; ` +
        `${st.vectors} vectors / ${st.assets} assets; index bytes ${mb(st.bytes)}, process RSS +${mb(rssAfter - rssBefore)}`,
    );

    const results: Record<string, { p50: number; p95: number; recall: number }> = {};
    // Wall time on a shared machine includes waiting for a core; the process CPU time per query does not, so both
    // are printed (the target is about wall time on an idle machine).
    const measure = (name: string, run: (q: Float32Array, f: number) => number[], filterIdx: number[], rounds = queries.length) => {
      for (const fi of filterIdx) {
        const times: number[] = [];
        const cpu: number[] = [];
        let rec = 0;
        for (let w = 0; w < Math.min(3, rounds); w++) run(queries[w]!, fi);
        for (let i = 0; i < rounds; i++) {
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          const got = run(queries[i]!, fi);
          times.push(performance.now() - t0);
          const c = process.cpuUsage(c0);
          cpu.push((c.user + c.system) / 1000);
          rec += recall(got, truth[i]![fi]!);
        }
        const r = { p50: percentile(times, 50), p95: percentile(times, 95), recall: rec / rounds };
        results[`${name}|${fs_[fi]!.name}`] = r;
        print(`  ${name.padEnd(34)} ${fs_[fi]!.name.padEnd(12)} p50 ${ms(r.p50).padStart(7)} ms  p95 ${ms(r.p95).padStart(7)} ms  recall@${K} ${r.recall.toFixed(3)}  (${rounds} queries; CPU p50 ${ms(percentile(cpu, 50))} p95 ${ms(percentile(cpu, 95))} ms)`);
      }
    };
    const all = [0, 1, 2];
    measure('VectorIndex.nearest', (q, fi) => index.nearest(q, { k: K, allowed: fs_[fi]!.allowed }).map((h) => h.rowid), all);
    const exactRounds = Math.max(3, Math.min(queries.length, Math.round(2e6 / size)));
    measure('VectorIndex.exactNearest (SQL scan)', (q, fi) => index.exactNearest(q, { k: K, allowed: fs_[fi]!.allowed }).map((h) => h.rowid), [0], exactRounds);

    if (opts.candidates.includes('brute')) {
      const brute = sqliteBruteForce(db, BENCH_MODEL);
      measure('sqlite-vec brute force (SQL)', (q) => brute(q, K), [0], exactRounds);
      const ratio = results['sqlite-vec brute force (SQL)|no filter']!.p50 / results['VectorIndex.nearest|no filter']!.p50;
      print(`  → VectorIndex.nearest is ${ratio.toFixed(0)}× faster than sqlite-vec brute force (p50, no filter)`);
    }
    if (opts.candidates.includes('bits')) {
      const bits = sqliteVecBits(db, BENCH_MODEL);
      if (!bits.built) {
        const b = await withLoopStall(async () => bits.build());
        print(`sqlite-vec vec0 bit[512] table built in ${ms(b.ms / 1000)} s`);
      }
      const search = bits.search();
      measure('sqlite-vec bit[512] KNN 1000 + SQL re-rank', (q, fi) => search(q, K, fs_[fi]!.allowed, 1000), all, Math.min(queries.length, 20));
      measure('sqlite-vec bit[512] KNN 4096 + SQL re-rank', (q, fi) => search(q, K, fs_[fi]!.allowed, 4096), [0], Math.min(queries.length, 10));
    }
    if (opts.candidates.includes('hnsw')) {
      const before = rss();
      const started = performance.now();
      let lastPrint = started;
      const hnsw = usearchHnsw(set, (done) => {
        if (performance.now() - lastPrint > 30_000) {
          lastPrint = performance.now();
          print(`  … usearch HNSW: ${done} vectors added in ${ms((lastPrint - started) / 1000)} s`);
        }
      });
      print(`usearch HNSW (i8, M=16, ef_add 128, ef_search 64) built in ${ms((performance.now() - started) / 1000)} s (2 threads, blocking), RSS +${mb(rss() - before)}`);
      measure('usearch HNSW (over-fetch k/share)', (q, fi) => hnsw(q, K, fs_[fi]!.allowed, fs_[fi]!.share), all);
    }
    index.close();
    db.close();
  }
}

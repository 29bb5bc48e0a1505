/**
 * The vector-index candidates the issue names, measured side by side with the one we ship (VectorIndex):
 * (1) sqlite-vec `bit[512]` vec0 table (vec_quantize_binary) KNN as the coarse pass, float re-rank in SQL;
 * (3) usearch HNSW (i8, connectivity 16); filters by over-fetching k / share (it has no filter callback in JS).
 * And the baseline: sqlite-vec brute force, `vec_distance_cosine` ORDER BY … LIMIT in SQL.
 * Each returns asset rowids best first (best frame per asset), so recall is computed the same way for all.
 */
import { createRequire } from 'node:module';
import type { Db } from '../../../server/src/platform/db/connection.ts';
import { DIMS, type ClusteredSet } from './clustered-vectors.ts';

type Hits = number[];

export function sqliteBruteForce(db: Db, model: string) {
  const st = db.prepare(
    `SELECT a.rowid FROM semantic_vectors v JOIN assets a ON a.asset_id = v.asset_id
      WHERE v.model_id = ? ORDER BY vec_distance_cosine(v.embedding, ?) LIMIT ?`,
  ).pluck();
  return (q: Float32Array, k: number): Hits => {
    // Frames of one video may repeat an asset: fetch a few more and keep each asset once.
    const rows = st.all(model, Buffer.from(q.buffer, q.byteOffset, q.byteLength), k * 2) as number[];
    return [...new Set(rows)].slice(0, k);
  };
}

/** (1) vec0 bit[512]: builds the table once (timed by the caller) and answers with a post-filtered pool. */
export function sqliteVecBits(db: Db, model: string) {
  const table = 'bench_vec_bits';
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(table);
  return {
    built: Boolean(exists),
    build() {
      db.exec(`DROP TABLE IF EXISTS ${table}; CREATE VIRTUAL TABLE ${table} USING vec0(code bit[512])`);
      db.prepare(`INSERT INTO ${table}(rowid, code) SELECT vector_id, vec_quantize_binary(embedding) FROM semantic_vectors WHERE model_id = ?`).run(model);
    },
    search() {
      const knn = db.prepare(`SELECT rowid FROM ${table} WHERE code MATCH vec_quantize_binary(?) AND k = ?`).pluck();
      const rerank = db
        .prepare(
          `SELECT a.rowid, vec_distance_cosine(v.embedding, @q) AS d FROM json_each(@ids) j
             CROSS JOIN semantic_vectors v ON v.vector_id = j.value CROSS JOIN assets a ON a.asset_id = v.asset_id`,
        )
        .raw(true);
      return (q: Float32Array, k: number, allowed: Uint8Array, pool: number): Hits => {
        const blob = Buffer.from(q.buffer, q.byteOffset, q.byteLength);
        const ids = knn.all(blob, Math.min(4096, pool)) as number[];
        const best = new Map<number, number>();
        for (const [r, d] of rerank.all({ q: blob, ids: JSON.stringify(ids) }) as [number, number][]) {
          if (allowed[r] !== 1) continue;
          if (!best.has(r) || d < best.get(r)!) best.set(r, d);
        }
        return [...best.entries()].sort((a, b) => a[1] - b[1]).slice(0, k).map((e) => e[0]);
      };
    },
  };
}

interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads: number): void;
  search(v: Float32Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  size(): number;
}

/** (3) usearch HNSW over the generated vectors (keys = vector index). */
export function usearchHnsw(set: ClusteredSet, onProgress?: (done: number) => void) {
  const require = createRequire(import.meta.url);
  const { Index } = require('usearch') as { Index: new (o: object) => UsearchIndex };
  const index = new Index({ metric: 'cos', connectivity: 16, dimensions: DIMS, quantization: 'i8', expansion_add: 128, expansion_search: 64 });
  const n = set.assetOf.length;
  const batch = 10_000;
  for (let i = 0; i < n; i += batch) {
    const m = Math.min(batch, n - i);
    const keys = new BigUint64Array(m);
    for (let j = 0; j < m; j++) keys[j] = BigInt(i + j);
    index.add(keys, set.vectors.subarray(i * DIMS, (i + m) * DIMS), 2);
    onProgress?.(i + m);
  }
  return (q: Float32Array, k: number, allowed: Uint8Array, share: number): Hits => {
    // No filter callback in usearch's JS API: over-fetch by the allowed share, then drop what is not allowed.
    const fetch = Math.min(n, Math.ceil((k * 2) / share));
    const res = index.search(q, fetch, 1);
    const out: number[] = [];
    const seen = new Set<number>();
    for (let i = 0; i < res.keys.length && out.length < k; i++) {
      const r = set.assetOf[Number(res.keys[i])]! + 1;
      if (allowed[r] === 1 && !seen.has(r)) {
        seen.add(r);
        out.push(r);
      }
    }
    return out;
  };
}

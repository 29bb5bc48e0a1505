/**
 * The nearest stored CLIP vectors to a query vector, among the allowed assets. The shape is the one
 * the vector index of features/semantic/vector-index answers (`VectorIndex.nearest`, s10-interfaces):
 * the search codes against `NearestVectors` only, so the in-memory index takes this scan's place
 * without a change here.
 *
 * `ExactVectorScan` is the exact answer straight from the source of truth (semantic_vectors, 0017):
 * sqlite-vec's cosine over every vector of the model, rowids by a join to assets, the bitmap applied,
 * the best frame per asset kept. Linear in the library (a full pass per query); the index is the fast path.
 */
import type { Db } from '../../../platform/db/connection.ts';
import type { VectorIndexHit, VectorNearestOptions } from '../../semantic/index.ts';

/** The vector index's answer and options (features/semantic/vector-index), which the exact scan shares. */
export type VectorHit = VectorIndexHit;
export type NearestOptions = VectorNearestOptions;

export interface NearestVectors {
  /** One hit per asset (its best frame), best first; never an asset whose bit is 0. */
  nearest(query: Float32Array, opts: NearestOptions): VectorHit[];
}

export class ExactVectorScan implements NearestVectors {
  constructor(
    private readonly db: Db,
    private readonly modelId: string,
  ) {}

  nearest(query: Float32Array, opts: NearestOptions): VectorHit[] {
    if (opts.k <= 0) return [];
    const rows = this.db
      .prepare(
        `SELECT rid, ts, cos FROM (
           SELECT a.rowid AS rid, v.frame_ts_ms AS ts, 1 - vec_distance_cosine(v.embedding, @q) AS cos
             FROM semantic_vectors v INDEXED BY semantic_vectors_model JOIN assets a ON a.asset_id = v.asset_id
            WHERE v.model_id = @model)
          WHERE cos >= @floor`,
      )
      .raw()
      .all({ q: Buffer.from(query.buffer, query.byteOffset, query.byteLength), model: this.modelId, floor: opts.minCosine ?? -2 }) as [number, number, number][];
    const best = new Map<number, VectorHit>();
    for (const [rid, ts, cos] of rows) {
      if (rid >= opts.allowed.length || opts.allowed[rid] !== 1) continue;
      const b = best.get(rid);
      if (!b || cos > b.cosine) best.set(rid, { rowid: rid, cosine: cos, frameTsMs: ts });
    }
    return [...best.values()].sort((x, y) => y.cosine - x.cosine || x.rowid - y.rowid).slice(0, opts.k);
  }
}

/** The stored vectors of one asset (one per photo, one per sampled video frame), as unit Float32Arrays. */
export function vectorsOfAsset(db: Db, assetId: string, modelId: string): { frameTsMs: number; vector: Float32Array }[] {
  const rows = db
    .prepare('SELECT frame_ts_ms AS ts, embedding FROM semantic_vectors WHERE asset_id = ? AND model_id = ? ORDER BY frame_ts_ms')
    .all(assetId, modelId) as { ts: number; embedding: Buffer }[];
  return rows.map((r) => ({ frameTsMs: r.ts, vector: new Float32Array(r.embedding.buffer.slice(r.embedding.byteOffset, r.embedding.byteOffset + r.embedding.byteLength)) }));
}

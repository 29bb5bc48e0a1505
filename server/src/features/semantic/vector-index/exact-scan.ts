/**
 * Exact cosines, read from the source of truth (semantic_vectors) by sqlite-vec's vec_distance_cosine, which runs
 * in C over the stored float32 blobs. Two uses:
 * - `scoreAssets`: the re-rank of the index's candidates, all frames of each candidate asset, so the score and the
 *   frame are always the stored ones (an entry the index still holds for a deleted asset finds no rows and
 *   drops out);
 * - `scanAll`: the exact answer over every vector of the model (exactNearest): no index at all, linear in the
 *   library (bench:search on 2 shared cores: ~3 s at 100k, ~11 s of CPU at 1M), for checking the index and for
 *   small libraries, not for the request path at scale.
 */
import type { Db } from '../../../platform/db/connection.ts';
import type { Statement } from 'better-sqlite3';
import { DIMENSIONS } from './change.ts';

export interface AssetScore {
  rowid: number;
  cosine: number;
  frameTsMs: number;
}

type Row = [rowid: number, frameTsMs: number, distance: number];

export function queryBlob(query: Float32Array): Buffer {
  if (query.length !== DIMENSIONS) throw new RangeError(`a query vector must have ${DIMENSIONS} dimensions, got ${query.length}`);
  return Buffer.from(query.buffer, query.byteOffset, query.byteLength);
}

export class ExactScan {
  private readonly byAssets: Statement;
  private readonly all: Statement;

  constructor(db: Db, private readonly modelId: string) {
    this.byAssets = db
      .prepare(
        // CROSS JOIN fixes the order: each listed rowid, its asset, its rows by the (asset_id, model_id) key.
        // Left to itself the planner scanned every vector of the model (1 s at 100k instead of 1 ms).
        `SELECT a.rowid, v.frame_ts_ms, vec_distance_cosine(v.embedding, @query)
           FROM json_each(@rowids) j
           CROSS JOIN assets a ON a.rowid = j.value
           CROSS JOIN semantic_vectors v ON v.asset_id = a.asset_id AND v.model_id = @model`,
      )
      .raw(true);
    this.all = db
      .prepare(
        `SELECT a.rowid, v.frame_ts_ms, vec_distance_cosine(v.embedding, ?)
           FROM semantic_vectors v JOIN assets a ON a.asset_id = v.asset_id
          WHERE v.model_id = ?`,
      )
      .raw(true);
  }

  /** Best frame per asset among `rowids` (each asset once; assets without rows of this model are absent). */
  scoreAssets(query: Float32Array, rowids: number[]): AssetScore[] {
    if (rowids.length === 0) return [];
    const best = new Map<number, AssetScore>();
    for (const row of this.byAssets.all({ query: queryBlob(query), model: this.modelId, rowids: JSON.stringify(rowids) }) as Row[]) keepBest(best, row);
    return [...best.values()];
  }

  /** Best frame per allowed asset over every vector of the model. */
  scanAll(query: Float32Array, allowed: Uint8Array): AssetScore[] {
    const best = new Map<number, AssetScore>();
    for (const row of this.all.iterate(queryBlob(query), this.modelId) as IterableIterator<Row>) {
      if (allowed[row[0]] === 1) keepBest(best, row);
    }
    return [...best.values()];
  }
}

/** Keeps the asset's best frame; equal scores keep the earlier frame (a video opens at its first best moment). */
function keepBest(best: Map<number, AssetScore>, [rowid, frameTsMs, distance]: Row): void {
  const cosine = 1 - distance;
  const had = best.get(rowid);
  if (!had || cosine > had.cosine || (cosine === had.cosine && frameTsMs < had.frameTsMs)) best.set(rowid, { rowid, cosine, frameTsMs });
}

/** Best first; equal cosines by rowid, so answers are stable. */
export function rankHits(scores: AssetScore[], k: number, minCosine: number): AssetScore[] {
  return scores
    .filter((s) => s.cosine >= minCosine)
    .sort((a, b) => b.cosine - a.cosine || a.rowid - b.rowid)
    .slice(0, k);
}

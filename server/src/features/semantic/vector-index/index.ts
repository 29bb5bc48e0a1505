/**
 * The vector index of semantic search (issue 13 point 3): top-k cosine over one model's CLIP vectors, scoped by
 * an `allowed` bitmap over assets.rowid that carries ownership and every filter, one hit per asset (its best
 * frame), in a few milliseconds at a million vectors with bounded memory.
 *
 * How (chosen by the figures of `npm run bench:search`, see chooser.ts):
 * 1. binary-codes.ts keeps a 512-bit code and an int8 copy of each vector in memory (~620 MB per million
 *    vectors, see there). A selective filter (at most SCORE_ALL_UP_TO allowed vectors: a date range, an album)
 *    lists its assets' vectors and scores them all by their int8 copies. Otherwise a WebAssembly popcount scan
 *    (hamming-kernel.ts) ranks every allowed code against the query's, and the nearest ~4,000 are re-scored by
 *    their int8 vectors (int8-dot-kernel.ts, WebAssembly SIMD);
 * 2. the best 2·k assets are re-scored exactly from semantic_vectors (exact-scan.ts: all their frames,
 *    vec_distance_cosine in SQLite), so scores, frames and existence come from the source of truth.
 * The table is the source of truth; the codes are rebuilt from it at `open` (loader.ts, in slices that keep the
 * event loop free) and follow it through `apply`, fed by the semantic store's change events.
 *
 * Wiring (for the container): subscribe to `SemanticStore.onChange` before awaiting `open`, keep the events that
 * arrive meanwhile and `apply` them once the index is there — `apply` is idempotent (a replace drops the asset's
 * slots before adding), so replaying an event the load already saw is harmless, and none is lost. Until then the
 * semantic channel answers with `exactNearest` or reports itself not ready.
 *
 * Costs (bench:search at 1M vectors, 2 cores shared at load 11–20, CPU time per query, p50): ~2.5 ms with a 1%
 * filter (the list of its ~10,000 vectors, no scan; it was 13.5 ms when every filter scanned every code), and
 * ~11–13 ms with no filter or 30%, where the Hamming scan (4.3 ms of CPU alone, 64 MB streamed), the int8 pass
 * and the exact re-rank's SQLite reads share it. A scan of 256-bit prefixes then the best codes' other halves was
 * tried and measured slower (binary-codes.ts).
 * `exactNearest` scans every vector in SQL (~11 s of CPU at 1M): for checks and small libraries, not the request
 * path at scale.
 */
import type { Db } from '../../../platform/db/connection.ts';
import type { BinaryCodes } from './binary-codes.ts';
import { type VectorChange, DIMENSIONS } from './change.ts';
import { hammingPool, rerankAssets } from './chooser.ts';
import { ExactScan, rankHits, type AssetScore } from './exact-scan.ts';
import { loadCodes } from './loader.ts';

export type { VectorChange, FrameVector } from './change.ts';

export interface VectorHit {
  /** assets.rowid */
  rowid: number;
  cosine: number;
  /** -1 for a photo, else the best frame's timestamp in ms */
  frameTsMs: number;
}

export interface NearestOptions {
  k: number;
  /** 1 at assets.rowid = this asset may be returned. REQUIRED: ownership and filters come in through it. */
  allowed: Uint8Array;
  /** hits below this cosine are not returned (the semantic channel's floor) */
  minCosine?: number;
}

export const INDEX_KIND = 'binary512-hamming+int8+sqlite-exact';

export class VectorIndex {
  private closed = false;

  private constructor(
    private readonly codes: BinaryCodes,
    private readonly exact: ExactScan,
    private readonly modelId: string,
    private readonly buildMs: number,
  ) {}

  /** Builds the index from semantic_vectors for `modelId`, yielding to the event loop between slices. */
  static async open(db: Db, modelId: string): Promise<VectorIndex> {
    const started = performance.now();
    const codes = await loadCodes(db, modelId);
    return new VectorIndex(codes, new ExactScan(db, modelId), modelId, performance.now() - started);
  }

  /** Follows the semantic store: call after its transaction committed. Changes of other models are ignored. */
  apply(change: VectorChange): void {
    this.assertOpen();
    switch (change.kind) {
      case 'replace':
        if (change.modelId !== this.modelId) return;
        this.codes.remove(change.assetRowid);
        for (const frame of change.frames) this.codes.add(change.assetRowid, frame.vector);
        return;
      case 'remove':
        this.codes.remove(change.assetRowid);
        return;
      case 'reset':
        this.codes.clear();
        return;
    }
  }

  /** The k nearest allowed assets (best frame each), best first; ties by rowid. */
  nearest(query: Float32Array, opts: NearestOptions): VectorHit[] {
    this.assertOpen();
    const { k, allowed, minCosine } = checked(query, opts);
    if (k === 0) return [];
    const { rowids } = this.codes.candidates(query, allowed, (n) => hammingPool(k, n), rerankAssets(k));
    return toHits(rankHits(this.exact.scoreAssets(query, rowids), k, minCosine), allowed);
  }

  /** The same answer by an exact scan of every stored vector of the model (linear: seconds at a million). */
  exactNearest(query: Float32Array, opts: NearestOptions): VectorHit[] {
    this.assertOpen();
    const { k, allowed, minCosine } = checked(query, opts);
    if (k === 0) return [];
    return toHits(rankHits(this.exact.scanAll(query, allowed), k, minCosine), allowed);
  }

  stats(): { vectors: number; assets: number; bytes: number; buildMs: number; kind: string } {
    return { vectors: this.codes.vectors, assets: this.codes.assets, bytes: this.codes.bytes, buildMs: this.buildMs, kind: INDEX_KIND };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.codes.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the vector index is closed');
  }
}

function checked(query: Float32Array, opts: NearestOptions): Required<NearestOptions> {
  if (!(query instanceof Float32Array) || query.length !== DIMENSIONS) {
    throw new RangeError(`the query must be a Float32Array of ${DIMENSIONS} numbers`);
  }
  if (!(opts.allowed instanceof Uint8Array)) throw new TypeError('allowed (a Uint8Array over assets.rowid) is required');
  if (!Number.isInteger(opts.k) || opts.k < 0) throw new RangeError(`k must be a non-negative integer, got ${opts.k}`);
  return { k: opts.k, allowed: opts.allowed, minCosine: opts.minCosine ?? -Infinity };
}

/** The last guard: a rowid whose bit is not 1 never leaves the index, whatever the layers above did. */
function toHits(scores: AssetScore[], allowed: Uint8Array): VectorHit[] {
  return scores.filter((s) => allowed[s.rowid] === 1).map((s) => ({ rowid: s.rowid, cosine: s.cosine, frameTsMs: s.frameTsMs }));
}

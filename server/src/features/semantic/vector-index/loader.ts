/**
 * Builds the in-memory codes from semantic_vectors for one model, in slices: each slice reads a page of rows by
 * vector_id (keyset, on the semantic_vectors_model index) and encodes them, then yields to the event loop, so a
 * start with a million vectors keeps answering requests (a slice is sized to take ~15 ms; the bench prints the
 * longest stall). Rows written while the load runs are either read by a later slice (new rows get higher
 * vector_ids) or reach the index through `apply`; a slot left for a row deleted meanwhile is harmless, because
 * every candidate is re-scored from SQLite (exact-scan.ts).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Db } from '../../../platform/db/connection.ts';
import { BinaryCodes } from './binary-codes.ts';
import { DIMENSIONS } from './change.ts';

/** how many vectors the centre is averaged over (the first by vector_id: deterministic, so a restart agrees) */
const CENTRE_SAMPLE = 1024;
const SLICE_TARGET_MS = 15;

/** A stored blob as floats (copied when the blob's bytes are not 4-aligned). */
export function blobFloats(blob: Buffer): Float32Array {
  if (blob.byteLength !== DIMENSIONS * 4) throw new RangeError(`a stored vector must be ${DIMENSIONS * 4} bytes, got ${blob.byteLength}`);
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, DIMENSIONS);
  return new Float32Array(new Uint8Array(blob).buffer);
}

export function centreOf(db: Db, modelId: string): Float32Array {
  const sum = new Float64Array(DIMENSIONS);
  const rows = db
    .prepare('SELECT embedding FROM semantic_vectors WHERE model_id = ? ORDER BY vector_id LIMIT ?')
    .pluck()
    .all(modelId, CENTRE_SAMPLE) as Buffer[];
  for (const blob of rows) {
    const v = blobFloats(blob);
    for (let j = 0; j < DIMENSIONS; j++) sum[j]! += v[j]!;
  }
  const centre = new Float32Array(DIMENSIONS);
  if (rows.length > 0) for (let j = 0; j < DIMENSIONS; j++) centre[j] = sum[j]! / rows.length;
  return centre;
}

export async function loadCodes(db: Db, modelId: string): Promise<BinaryCodes> {
  const centre = centreOf(db, modelId);
  await yieldToLoop();
  // Capacity hints for one allocation up front, read from the ends of indexes (a count(*) would walk a million
  // index entries in one go): vector_ids of other models make it an over-estimate, which only reserves more.
  const hint = db
    .prepare(
      `SELECT (SELECT max(vector_id) FROM semantic_vectors WHERE model_id = @m) - (SELECT min(vector_id) FROM semantic_vectors WHERE model_id = @m) + 1 AS n,
              (SELECT max(rowid) FROM assets) AS maxRowid`,
    )
    .get({ m: modelId }) as { n: number | null; maxRowid: number | null };
  const codes = new BinaryCodes(centre);
  codes.reserve(hint.n ?? 0, hint.maxRowid ?? 0);
  await yieldToLoop();
  const page = db
    .prepare(
      `SELECT v.vector_id, a.rowid, v.embedding
         FROM semantic_vectors v JOIN assets a ON a.asset_id = v.asset_id
        WHERE v.model_id = ? AND v.vector_id > ?
        ORDER BY v.vector_id LIMIT ?`,
    )
    .raw(true);
  let after = 0;
  let limit = 250;
  for (;;) {
    const started = performance.now();
    const rows = page.all(modelId, after, limit) as [number, number, Buffer][];
    for (const [, rowid, blob] of rows) codes.add(rowid, blobFloats(blob));
    if (rows.length < limit) break;
    after = rows[rows.length - 1]![0];
    const took = performance.now() - started;
    // Size the next slice to the target (bounded, so one slow slice on a busy machine cannot run away).
    limit = Math.max(50, Math.min(4000, Math.round((limit * SLICE_TARGET_MS) / Math.max(took, 0.5))));
    await yieldToLoop();
  }
  return codes;
}

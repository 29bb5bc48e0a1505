/**
 * The CLIP vectors of photos and video frames (table `semantic_vectors`, migration 0017): the source of truth
 * that every in-memory index is built from, and the changes that index follows (`onChange`).
 *
 * Changes are told to listeners only once they are committed, in the order they were committed:
 * - `replace` and `reset` called outside a transaction commit in their own and are told at once (synchronously,
 *   so `replace(); index.nearest()` sees the new vectors).
 * - Called inside a caller's transaction (the rebuild job wipes the index in its own), the change is held and
 *   told after that transaction, on the next microtask, only if it committed: a marker row in a TEMP table rolls
 *   back with the transaction, so a rolled-back wipe is never told.
 * - `remove`: an asset deleted for good takes its vectors with it (ON DELETE CASCADE). How the store learns of
 *   it: a TEMP trigger on this connection's `assets` (every way a row goes: the Trash emptied or purged, an
 *   account or repository removed and its rows cascading) notes the asset's rowid and id in the same
 *   transaction. Chosen over the `asset.deleted` event (which has no rowid, and is one path of several) and over
 *   following the change journal (which has rowids but no asset ids, and would need polling). The catalog has
 *   one writer connection (platform/db/connection.ts); whatever is in memory is rebuilt from this table at start,
 *   so a kill between commit and telling loses nothing.
 */
import os from 'node:os';
import type { Db } from '../../platform/db/connection.ts';

export const VECTOR_DIM = 512;
/** frame_ts_ms of a photo's vector. */
export const PHOTO_FRAME = -1;

export interface FrameVector {
  frameTsMs: number /* -1 for a photo */;
  vector: Float32Array /* unit, 512 */;
}
export type VectorChange =
  | { kind: 'replace'; assetId: string; assetRowid: number; modelId: string; frames: FrameVector[] }
  | { kind: 'remove'; assetId: string; assetRowid: number } // asset gone (also when its rows cascade away)
  | { kind: 'reset' }; // every vector wiped (semantic reset)

const LITTLE_ENDIAN = os.endianness() === 'LE';

/** The stored form: float32 little-endian, the layout sqlite-vec reads. */
export function vectorBlob(v: Float32Array): Buffer {
  const out = Buffer.alloc(v.length * 4);
  if (LITTLE_ENDIAN) Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(out);
  else v.forEach((x, i) => out.writeFloatLE(x, i * 4));
  return out;
}

export function blobVector(b: Buffer): Float32Array {
  const out = new Float32Array(b.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = b.readFloatLE(i * 4);
  return out;
}

function checkFrames(frames: FrameVector[]): void {
  const seen = new Set<number>();
  for (const f of frames) {
    if (!Number.isInteger(f.frameTsMs) || f.frameTsMs < PHOTO_FRAME) throw new RangeError(`frameTsMs must be an integer ≥ -1, got ${f.frameTsMs}`);
    if (seen.has(f.frameTsMs)) throw new RangeError(`two vectors for frame ${f.frameTsMs}`);
    seen.add(f.frameTsMs);
    if (f.vector.length !== VECTOR_DIM) throw new RangeError(`a vector has ${f.vector.length} dimensions, expected ${VECTOR_DIM}`);
    if (!f.vector.every(Number.isFinite)) throw new RangeError('a vector holds a value that is not finite');
  }
}

/**
 * What every SemanticStore on one connection shares: the listeners, the held changes and the deletion trigger
 * (one set per connection, so a second store opened on the same catalog, by a test or a tool, sees the same
 * changes and never takes the deletions from under the first).
 */
class ChangeHub {
  readonly listeners = new Set<(c: VectorChange) => void>();
  /** Changes made inside a caller's transaction, told once it has committed (keyed by their marker row). */
  private readonly held = new Map<number, VectorChange>();
  private nextMark = 1;
  private flushQueued = false;

  constructor(private readonly db: Db) {
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS semantic_held (mark INTEGER PRIMARY KEY);
             CREATE TEMP TABLE IF NOT EXISTS semantic_gone (asset_rowid INTEGER NOT NULL, asset_id TEXT NOT NULL)`);
    // The trigger calls back so that a flush is queued for the deletion's transaction.
    db.function('hearth_semantic_gone', { deterministic: false }, () => {
      this.queueFlush();
      return null;
    });
    db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS semantic_assets_gone AFTER DELETE ON main.assets
             BEGIN
               INSERT INTO semantic_gone (asset_rowid, asset_id) VALUES (OLD.rowid, OLD.asset_id);
               SELECT hearth_semantic_gone();
             END`);
  }

  publish(change: VectorChange): void {
    if (this.db.inTransaction) {
      const mark = this.nextMark++;
      this.db.prepare('INSERT INTO semantic_held (mark) VALUES (?)').run(mark);
      this.held.set(mark, change);
      this.queueFlush();
      return;
    }
    this.flush();
    this.tell(change);
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  /**
   * Tells what committed: held changes whose marker survived, and deletions noted by the trigger. Inside a
   * transaction (one held open across an await) nothing is known to have committed yet: look again later.
   */
  private flush(): void {
    if (this.db.inTransaction) {
      setImmediate(() => this.queueFlush());
      return;
    }
    const committed = new Set(this.db.prepare('SELECT mark FROM semantic_held').pluck().all() as number[]);
    const gone = this.db.prepare('SELECT asset_rowid AS r, asset_id AS a FROM semantic_gone ORDER BY rowid').all() as { r: number; a: string }[];
    if (committed.size) this.db.prepare('DELETE FROM semantic_held').run();
    if (gone.length) this.db.prepare('DELETE FROM semantic_gone').run();
    // Outside any transaction, a held change without its marker was rolled back: dropped.
    // A reset right after a reset wipes nothing more (the rebuild resets once per semantic task): told once.
    const toTell = [...this.held.keys()]
      .sort((a, b) => a - b)
      .filter((m) => committed.has(m))
      .map((m) => this.held.get(m)!)
      .filter((c, i, all) => !(c.kind === 'reset' && all[i - 1]?.kind === 'reset'));
    this.held.clear();
    // Deletions last: a replace held in the same transaction as its asset's deletion must not outlive it.
    for (const c of toTell) this.tell(c);
    for (const g of gone) this.tell({ kind: 'remove', assetId: g.a, assetRowid: g.r });
  }

  private tell(change: VectorChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch (e) {
        // A listener's failure is its own (an index that must rebuild); the vectors are committed either way.
        process.emitWarning(`a semantic vector listener failed on ${change.kind}: ${(e as Error).message}`);
      }
    }
  }
}

const HUBS = new WeakMap<Db, ChangeHub>();

export class SemanticStore {
  private readonly hub: ChangeHub;

  constructor(private readonly db: Db) {
    let hub = HUBS.get(db);
    if (!hub) HUBS.set(db, (hub = new ChangeHub(db)));
    this.hub = hub;
  }

  /**
   * Replaces the asset's vectors of this model with `frames` (none: the asset has no vector of this model), in
   * one transaction. False when the asset is not in the catalog (deleted meanwhile): nothing is stored or told.
   */
  replace(assetId: string, modelId: string, frames: FrameVector[]): boolean {
    checkFrames(frames);
    const rowid = this.db.transaction(() => {
      const row = this.db.prepare('SELECT rowid AS r FROM assets WHERE asset_id = ?').get(assetId) as { r: number } | undefined;
      if (!row) return null;
      this.db.prepare('DELETE FROM semantic_vectors WHERE asset_id = ? AND model_id = ?').run(assetId, modelId);
      const insert = this.db.prepare('INSERT INTO semantic_vectors (asset_id, model_id, frame_ts_ms, embedding, created_at) VALUES (?, ?, ?, ?, ?)');
      const now = Date.now();
      for (const f of [...frames].sort((a, b) => a.frameTsMs - b.frameTsMs)) insert.run(assetId, modelId, f.frameTsMs, vectorBlob(f.vector), now);
      return row.r;
    })();
    if (rowid === null) return false;
    this.hub.publish({ kind: 'replace', assetId, assetRowid: rowid, modelId, frames: frames.map((f) => ({ frameTsMs: f.frameTsMs, vector: f.vector })) });
    return true;
  }

  /** The asset's vectors of this model, earliest frame first (a photo's one vector has frameTsMs -1). */
  vectorsOf(assetId: string, modelId: string): FrameVector[] {
    const rows = this.db
      .prepare('SELECT frame_ts_ms AS t, embedding AS e FROM semantic_vectors WHERE asset_id = ? AND model_id = ? ORDER BY frame_ts_ms')
      .all(assetId, modelId) as { t: number; e: Buffer }[];
    return rows.map((r) => ({ frameTsMs: r.t, vector: blobVector(r.e) }));
  }

  /** How many assets and vectors a model has (the figures of a rebuild or of diagnostics). */
  counts(modelId: string): { assets: number; vectors: number } {
    return this.db
      .prepare('SELECT count(DISTINCT asset_id) AS assets, count(*) AS vectors FROM semantic_vectors WHERE model_id = ?')
      .get(modelId) as { assets: number; vectors: number };
  }

  /** Wipes every vector of every model (a semantic reset). */
  reset(): void {
    this.db.prepare('DELETE FROM semantic_vectors').run();
    this.hub.publish({ kind: 'reset' });
  }

  onChange(listener: (c: VectorChange) => void): () => void {
    this.hub.listeners.add(listener);
    return () => this.hub.listeners.delete(listener);
  }
}

/**
 * The in-memory vector index of each model the search asks about, kept current by the semantic store.
 *
 * Why a holder: the index (vector-index/) is built from semantic_vectors at start, which takes seconds at a
 * large library (~33 s at a million vectors); the server answers meanwhile. Until a model's index is open its
 * searches use the exact scan the caller gives (correct, linear in the library), and the build runs in the
 * background; a failed build is logged and retried at the next search rather than leaving search broken.
 *
 * No change is lost between the load and the first `apply`: the holder listens to the store before the build
 * starts, keeps what arrives meanwhile, and replays it once the index is there (`apply` is idempotent: a replace
 * drops the asset's slots before adding them, so an event the load already saw does no harm). A reset while a
 * build runs is replayed as well (it clears what the load read).
 *
 * Memory: ~600 MB per million vectors (vector-index/binary-codes.ts); only the models searched are held, in
 * practice one (the installed CLIP's image tower).
 */
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/connection.ts';
import type { SemanticStore, VectorChange } from './semantic.store.ts';
import { VectorIndex, type NearestOptions, type VectorHit } from './vector-index/index.ts';

export interface NearestLookup {
  nearest(query: Float32Array, opts: NearestOptions): VectorHit[];
}

interface Slot {
  index: VectorIndex | null;
  /** Changes seen while the index is being built. */
  pending: VectorChange[];
  building: Promise<void> | null;
}

export class VectorIndexes {
  private readonly slots = new Map<string, Slot>();
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(
    private readonly db: Db,
    store: SemanticStore,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
  ) {
    this.unsubscribe = store.onChange((change) => {
      for (const slot of this.slots.values()) {
        if (slot.index) slot.index.apply(change);
        else slot.pending.push(change);
      }
    });
  }

  /**
   * The lookup for `modelId`: its index when built; else `fallback` (the exact scan), with the build started in
   * the background.
   */
  lookup(modelId: string, fallback: () => NearestLookup): NearestLookup {
    const slot = this.slot(modelId);
    if (slot.index) return slot.index;
    this.build(modelId, slot);
    return fallback();
  }

  /** Starts building `modelId`'s index now (at start, so the first search finds it ready); resolves when built. */
  warm(modelId: string): Promise<void> {
    const slot = this.slot(modelId);
    return slot.index ? Promise.resolve() : this.build(modelId, slot);
  }

  stats(): Record<string, ReturnType<VectorIndex['stats']> | 'building'> {
    return Object.fromEntries([...this.slots].map(([model, s]) => [model, s.index ? s.index.stats() : 'building']));
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    for (const slot of this.slots.values()) slot.index?.close();
    this.slots.clear();
  }

  private slot(modelId: string): Slot {
    let slot = this.slots.get(modelId);
    if (!slot) {
      slot = { index: null, pending: [], building: null };
      this.slots.set(modelId, slot);
    }
    return slot;
  }

  private build(modelId: string, slot: Slot): Promise<void> {
    if (slot.building) return slot.building;
    // Changes told before this point are committed, so the load reads them; keep only what comes from here on.
    slot.pending = [];
    slot.building = VectorIndex.open(this.db, modelId).then(
      (index) => {
        if (this.closed) return index.close();
        for (const change of slot.pending) index.apply(change);
        slot.pending = [];
        slot.index = index;
        const s = index.stats();
        this.log.info({ model_id: modelId, vectors: s.vectors, assets: s.assets, bytes: s.bytes, build_ms: Math.round(s.buildMs) }, 'vector index ready');
      },
      (e: unknown) => {
        slot.building = null; // the next search tries again
        if (!this.closed) this.log.warn({ err: e, model_id: modelId }, 'the vector index could not be built: searches scan exactly meanwhile');
      },
    );
    return slot.building;
  }
}

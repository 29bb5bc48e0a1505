/**
 * Each owner's face embeddings, in face-id order, kept between the incremental passes of an import
 * (FacesStore.reclusterAround): a pass needs every face of the owner to find the components of the new ones, and
 * reading them all again for every photo (a row and a Buffer per face, then one matrix) cost 93 ms a photo at
 * 20,000 faces (scripts/bench/faces.ts, "incremental"), as much as the search itself.
 *
 * Why the kept copy is never stale:
 * - a face's embedding and owner are never updated (faces are deleted and inserted again), and face ids come from
 *   AUTOINCREMENT, so an id is never used twice: faces added since the copy are those above its largest id
 *   (one range of the faces_owner index), and a face removed since shows as a count below the copy's;
 * - a count that differs reads everything again (faces are removed when a photo is indexed again or deleted:
 *   rarely within an import);
 * - what a pass read inside its transaction (its own new faces included) is kept only once that transaction has
 *   committed (`settle`): a rolled-back transaction gives its ids back to AUTOINCREMENT, and a face inserted later
 *   under one of them must not meet the rolled-back one's embedding here.
 *
 * `warm` reads them ahead, outside the write and a slice at a time, so that the first photo of an import (or the first
 * after faces were removed) does not read every face inside its write: 93 ms of the event loop at 20,000 faces. It
 * also searches ahead the components the photo's new faces will join (face-components.ts, kept with the copy), so
 * that the pass inside the write finds them known instead of searching them there.
 * When the arrays are nearly full, `warm` also moves the rows to larger ones ahead of the write, a slice per turn: at
 * 100,000 faces that copy of 51 MB took 33 ms, in the write that happened to fill them.
 * Held while indexing goes on, dropped IDLE_MS after the last pass (20,000 faces are 10 MB), so an idle server
 * does not keep it.
 */
import { nextTurn } from '../../platform/cache/slices.ts';
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { FaceMatrix } from './cluster-neighbours.ts';
import { FaceComponents } from './face-components.ts';

// As the indexers' shared pixels (features/indexing/photo-pixels.ts): well within the minute after which the work's
// memory must be back (issue 25, point 2).
const IDLE_MS = 30_000;
/** Faces `warm` reads per statement; it reads on while a turn of the event loop is under WARM_SLICE_MS and 2,048 faces. */
const WARM_ROWS = 512;
const WARM_ROWS_PER_TURN = 2048;
/**
 * The time `warm`'s reading takes per turn of the event loop. It read 2,048 faces a turn before, a few milliseconds
 * mostly, but one such read took 42 ms at 100,000 faces (the first after a people rebuild had written them all).
 */
const WARM_SLICE_MS = 8;
/** The time `warm`'s component searches take per turn of the event loop. */
const SEARCH_SLICE_MS = 10;
/** Rows `warm` moves to larger arrays per turn of the event loop (8 MB of 128-dimension rows, about 5 ms). */
const GROW_SLICE = 16_384;

/** Rows of room past half as many again, so that a small owner's arrays do not grow every few photos either. */
const SPARE_ROWS = 2048;
/** The rows arrays are made for when they hold `n`: room for the photos of an import to come before they must grow. */
const capacityFor = (n: number) => Math.ceil(n * 1.5) + SPARE_ROWS;
/** Below this much room left, `warm` grows the arrays ahead of the write (a photo seldom has more than 64 faces). */
const roomWanted = (n: number) => Math.max(256, Math.ceil(n / 16));

interface Vectors {
  ids: Float64Array;
  data: Float32Array;
  n: number;
  dims: number;
  /** The known components of the graph over these rows (shared by the copies `append` makes). */
  components: FaceComponents;
}

/** What a pass sees: the owner's face ids (ascending) and their embeddings, row i for ids[i]. */
export interface OwnerFaces {
  ids: Float64Array;
  /** Append-only: rows below its size never change while the copy is kept (component-search.ts relies on it). */
  matrix: FaceMatrix;
  /** Its known components; rows appended since the last pass are taken in by `extend`. */
  components: FaceComponents;
}

export class OwnerFaceVectors {
  private readonly kept = new Map<number, Vectors>();
  private pending: { ownerId: number; vectors: Vectors } | null = null;
  private idle: NodeJS.Timeout | null = null;
  private readonly warming = new Map<number, Promise<void>>();
  /** Passes that read every face of the owner, and those that read only the faces added since (tests, benches). */
  readonly reads = { full: 0, added: 0 };
  /** Moves to larger arrays: ahead of a write (`warm`), and inside one (tests, benches). */
  readonly grown = { ahead: 0, inWrite: 0 };

  constructor(
    private readonly db: Db,
    /** The people's cosine threshold: the components' edges (cluster.ts, CLUSTER_PARAMS). */
    private readonly threshold: number,
    /** Components larger than this are not searched whole (face-components.ts; INCREMENTAL_CLUSTER_MAX). */
    private readonly maxRows = Infinity,
  ) {}

  /** The owner's faces as the database has them now, this transaction's changes included. */
  read(ownerId: number): OwnerFaces {
    this.touch();
    const kept = this.kept.get(ownerId);
    let vectors: Vectors | null = null;
    if (kept && kept.n > 0 && this.countUpTo(ownerId, kept.ids[kept.n - 1]!) === kept.n) vectors = this.added(ownerId, kept);
    if (!vectors) {
      this.reads.full++;
      vectors = this.all(ownerId);
    } else this.reads.added++;
    this.pending = { ownerId, vectors };
    return { ids: vectors.ids.subarray(0, vectors.n), matrix: matrixOf(vectors), components: vectors.components };
  }

  /** After the transaction of the last `read`: keep what it read when that is committed now, else forget it. */
  settle(committed: boolean): void {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    if (committed) this.kept.set(p.ownerId, p.vectors);
    else this.kept.delete(p.ownerId);
  }

  /**
   * Reads the owner's faces ahead when no valid copy is kept, a slice per turn of the event loop, outside any write:
   * between two turns no transaction is open on this connection, so each slice is committed faces. A copy read
   * this way is a snapshot like any other: faces added or removed meanwhile are found by `read`'s checks.
   * Then the components that faces with the `coming` embeddings will join are searched, outside the write too.
   */
  async warm(ownerId: number, coming: readonly Float32Array[] = []): Promise<void> {
    const kept = this.kept.get(ownerId);
    if (!kept || (kept.n > 0 && this.countUpTo(ownerId, kept.ids[kept.n - 1]!) !== kept.n)) {
      let running = this.warming.get(ownerId);
      if (!running) {
        running = this.readInSlices(ownerId).finally(() => this.warming.delete(ownerId));
        this.warming.set(ownerId, running);
      }
      await running;
    }
    await this.growAhead(ownerId);
    const vectors = this.kept.get(ownerId);
    if (!vectors?.n || !coming.length || coming.some((v) => v.length !== vectors.dims)) return;
    const { components } = vectors;
    await components.searchAhead(matrixOf(vectors), coming, SEARCH_SLICE_MS, () => this.kept.get(ownerId)?.components === components);
  }

  /**
   * Moves the kept rows to larger arrays when little room is left, GROW_SLICE rows a turn. Passes that commit meanwhile
   * append to the old arrays (rows below the kept count never change), so each slice copies up to the count kept now,
   * and the last one swaps the arrays in the same turn; a full read meanwhile (other arrays) ends it.
   */
  private async growAhead(ownerId: number): Promise<void> {
    const start = this.kept.get(ownerId);
    if (!start?.n || start.ids.length - start.n >= roomWanted(start.n)) return;
    const capacity = capacityFor(start.n);
    const ids = new Float64Array(capacity);
    const data = new Float32Array(capacity * start.dims);
    for (let copied = 0; ; ) {
      const now = this.kept.get(ownerId);
      if (!now || now.data !== start.data || now.n > capacity) return;
      const upTo = Math.min(now.n, copied + GROW_SLICE);
      ids.set(now.ids.subarray(copied, upTo), copied);
      data.set(now.data.subarray(copied * now.dims, upTo * now.dims), copied * now.dims);
      copied = upTo;
      if (copied === now.n) {
        this.kept.set(ownerId, { ...now, ids, data });
        this.grown.ahead++;
        return;
      }
      await nextTurn();
    }
  }

  private async readInSlices(ownerId: number): Promise<void> {
    this.touch();
    // Arrays with room for all the owner's faces and the import's next ones, so the read itself never copies them.
    const capacity = capacityFor(this.countUpTo(ownerId, Number.MAX_SAFE_INTEGER));
    const slice = prepared(this.db, 'SELECT face_id, embedding FROM faces WHERE owner_id = ? AND face_id > ? ORDER BY face_id LIMIT ?');
    let vectors: Vectors = { ids: new Float64Array(0), data: new Float32Array(0), n: 0, dims: 0, components: new FaceComponents(this.threshold, 0, this.maxRows) };
    let sliceEnd = performance.now() + WARM_SLICE_MS;
    let turnRows = 0;
    for (;;) {
      const rows = slice.raw().all(ownerId, vectors.n ? vectors.ids[vectors.n - 1]! : 0, WARM_ROWS) as [number, Buffer][];
      if (!rows.length) break;
      if (!vectors.n) {
        vectors.dims = rows[0]![1].byteLength / 4;
        vectors.ids = new Float64Array(capacity);
        vectors.data = new Float32Array(capacity * vectors.dims);
      }
      const grown = append(vectors, rows);
      if (!grown) return; // faces of other sizes: left to `read`
      vectors = grown;
      if (rows.length < WARM_ROWS) break;
      turnRows += rows.length;
      if (turnRows >= WARM_ROWS_PER_TURN || performance.now() >= sliceEnd) {
        await nextTurn();
        sliceEnd = performance.now() + WARM_SLICE_MS;
        turnRows = 0;
      }
    }
    if (vectors.n) this.kept.set(ownerId, { ...vectors, components: new FaceComponents(this.threshold, vectors.n, this.maxRows) });
  }

  clear(): void {
    this.kept.clear();
    this.pending = null;
  }

  private countUpTo(ownerId: number, maxId: number): number {
    return prepared(this.db, 'SELECT count(*) FROM faces WHERE owner_id = ? AND face_id <= ?').pluck().get(ownerId, maxId) as number;
  }

  /**
   * The kept vectors with the faces added since, appended: into the same arrays when they have room (rows past the
   * kept count are not the kept copy's, so a pass that is rolled back leaves it as it was), else into larger ones.
   * Null when an added face does not have the kept vectors' dimensions (read everything again).
   */
  private added(ownerId: number, kept: Vectors): Vectors | null {
    const rows = prepared(this.db, 'SELECT face_id, embedding FROM faces WHERE owner_id = ? AND face_id > ? ORDER BY face_id')
      .raw()
      .all(ownerId, kept.ids[kept.n - 1]!) as [number, Buffer][];
    const vectors = append(kept, rows);
    if (vectors && vectors.data !== kept.data) this.grown.inWrite++;
    return vectors;
  }


  private all(ownerId: number): Vectors {
    const rows = prepared(this.db, 'SELECT face_id, embedding FROM faces WHERE owner_id = ? ORDER BY face_id').raw().all(ownerId) as [number, Buffer][];
    const dims = rows.length ? rows[0]![1].byteLength / 4 : 0;
    // With room for the next photos (pages not written are not resident), so the next `warm` need not grow them.
    const ids = new Float64Array(capacityFor(rows.length));
    const data = new Float32Array(ids.length * dims);
    // Byte copies: a Buffer's bytes may not be aligned for a Float32Array view of them.
    const bytes = new Uint8Array(data.buffer);
    rows.forEach(([id, e], i) => {
      ids[i] = id;
      bytes.set(e, i * dims * 4);
    });
    return { ids, data, n: rows.length, dims, components: new FaceComponents(this.threshold, rows.length, this.maxRows) };
  }

  private touch(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.clear(), IDLE_MS);
    this.idle.unref();
  }
}

/**
 * `vectors` with `rows` appended: into the same arrays when they have room (rows past `vectors.n` belong to no kept
 * copy, so a pass that is rolled back leaves the kept one as it was), else into larger ones. Null when a row does
 * not have the vectors' dimensions.
 */
function append(vectors: Vectors, rows: readonly [number, Buffer][]): Vectors | null {
  const dims = vectors.dims;
  if (rows.some(([, e]) => e.byteLength !== dims * 4)) return null;
  const n = vectors.n + rows.length;
  let { ids, data } = vectors;
  if (n > ids.length) {
    const capacity = capacityFor(n);
    ids = new Float64Array(capacity);
    ids.set(vectors.ids.subarray(0, vectors.n));
    data = new Float32Array(capacity * dims);
    data.set(vectors.data.subarray(0, vectors.n * dims));
  }
  // Byte copies: a Buffer's bytes may not be aligned for a Float32Array view of them.
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  rows.forEach(([id, e], x) => {
    ids[vectors.n + x] = id;
    bytes.set(e, (vectors.n + x) * dims * 4);
  });
  return { ids, data, n, dims, components: vectors.components };
}

/** The copy's rows as a matrix (no copy). */
function matrixOf(v: Vectors): FaceMatrix {
  return FaceMatrix.over(v.data.subarray(0, v.n * v.dims), v.dims);
}

/**
 * An owner's faces as a people rebuild reads them: flat columns, row i of each the same face, in face-id order,
 * and one Float32Array of every embedding. Read in one snapshot by the rebuild's clustering thread over a
 * connection of its own (cluster-worker.ts), so that the server's isolate never holds the faces' rows.
 *
 * Why not on the main thread (issue 25 point 4, round four): reading 100k faces there, even a page at a time,
 * gave the main isolate 100k short-lived Buffers (51 MB of embeddings counted as external memory) and row arrays;
 * that churn set off the major GCs whose final pauses (137–154 ms, a 50 MB heap marked on a loaded 2-core machine)
 * were the longest stalls left during a rebuild. Only the columns come back (`FaceColumns`: 17 bytes a face,
 * transferred, not copied).
 */
import type { Db } from '../../platform/db/connection.ts';

/**
 * What the main thread keeps of each face during a rebuild: a few numbers, no object per face. `person` 0:
 * none (person ids start at 1).
 */
export interface FaceColumns {
  n: number;
  faceId: Float64Array;
  person: Float64Array;
  /** 1: `assigned_by = 'user'` (pinned). */
  user: Uint8Array;
}

/** The columns, and what only the clustering needs. */
export interface FaceTable extends FaceColumns {
  score: Float64Array;
  /** Row-major, `dims` floats per face. */
  embeddings: Float32Array;
  dims: number;
  /** Rejections as pairs: row `rejectRow[x]` must not join person `rejectPerson[x]`. */
  rejectRow: Int32Array;
  rejectPerson: Float64Array;
}

/**
 * The owner's faces and their rejections, in one read transaction of `db` (the caller's: the clustering thread's
 * own connection; a catalog in memory, which no thread can open, is read on the caller's thread). Rows are
 * streamed as arrays (`raw`): nothing per face outlives its row.
 */
export function readFaceTable(db: Db, ownerId: number): FaceTable {
  return db.transaction(() => {
    const rejected = new Map<number, number[]>();
    const pairs = db
      .prepare('SELECT r.face_id, r.person_id FROM face_rejections r JOIN faces f ON f.face_id = r.face_id WHERE f.owner_id = ? ORDER BY r.face_id, r.person_id')
      .raw(true)
      .all(ownerId) as [number, number][];
    for (const [face, p] of pairs) (rejected.get(face) ?? rejected.set(face, []).get(face)!).push(p);
    const n = db.prepare('SELECT count(*) FROM faces WHERE owner_id = ?').pluck().get(ownerId) as number;
    const faceId = new Float64Array(n), person = new Float64Array(n), score = new Float64Array(n), user = new Uint8Array(n);
    const rejectRow: number[] = [];
    const rejectPerson: number[] = [];
    let embeddings = new Float32Array(0);
    let dims = 0;
    let i = 0;
    const rows = db
      .prepare(`SELECT face_id, score, embedding, person_id, assigned_by = 'user' FROM faces WHERE owner_id = ? ORDER BY face_id`)
      .raw(true)
      .iterate(ownerId) as IterableIterator<[number, number, Buffer, number | null, number]>;
    for (const [id, sc, blob, p, u] of rows) {
      const d = blob.byteLength / 4;
      if (!dims) {
        dims = d;
        embeddings = new Float32Array(n * dims);
      }
      if (d !== dims) throw new Error(`Face ${id} has an embedding of ${d} values, others ${dims}: its faces must be read again by one model.`);
      faceId[i] = id;
      score[i] = sc;
      person[i] = p ?? 0;
      user[i] = u;
      embeddings.set(new Float32Array(blob.buffer, blob.byteOffset, d), i * dims);
      for (const q of rejected.get(id) ?? []) {
        rejectRow.push(i);
        rejectPerson.push(q);
      }
      i++;
    }
    return { n, faceId, person, user, score, embeddings, dims, rejectRow: Int32Array.from(rejectRow), rejectPerson: Float64Array.from(rejectPerson) };
  })();
}

/**
 * Worker thread body for a people rebuild's clustering (started by cluster-thread.ts; not imported anywhere
 * else). It reads the owner's faces itself, in one snapshot over a connection of its own to the catalog file
 * (face-table.store.ts: flat columns, one Float32Array for every embedding), clusters them with the rebuild's own rule
 * (cluster.ts clusterFacesIndexed: the same code, so the same groups) and answers the faces' columns and one
 * group per face, in face-id order. Everything the read and the clustering allocate (the rows, the matrix, the
 * HNSW graph, 100k neighbour lists) lives and dies in this thread's heap: the server's event loop and its
 * garbage collector never see it.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { clusterFacesIndexed, type ClusterFace } from './cluster.ts';
import type { ClusterRequest, ClusterResponse } from './cluster-thread.ts';
import { readFaceTable, type FaceTable } from './face-table.store.ts';

/**
 * This thread at a low CPU priority, where the system allows it (Linux: a thread's nice value is its own;
 * `/proc/thread-self` names its id). On a 2-core home server the clustering would otherwise take a core as its
 * due while the server's loop, its garbage collector's helper threads and the person browsing share the
 * other: the loop then waited for the CPU (issue 25 point 4). Nice 10, not 19: against a busy thread of
 * normal priority it still gets about a tenth of a core (at 19, a sixtieth: a rebuild during an import or
 * steady browsing crawled, in bench:faces for tens of minutes), while the loop, when it wakes, has the core
 * nine parts in ten. The value set is reported (null: not set).
 */
const CLUSTER_NICE = 10;

function lowPriority(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    os.setPriority(tid, CLUSTER_NICE);
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
const nice = lowPriority();

parentPort!.once('message', (req: ClusterRequest) => {
  void run(req).then(
    ({ t, groups }) =>
      parentPort!.postMessage({ ok: true, cols: { n: t.n, faceId: t.faceId, person: t.person, user: t.user }, groups, nice } satisfies ClusterResponse, [
        t.faceId.buffer,
        t.person.buffer,
        t.user.buffer,
        groups.buffer,
      ] as ArrayBuffer[]),
    (e: unknown) => parentPort!.postMessage({ ok: false, error: e instanceof Error ? e.message : String(e) } satisfies ClusterResponse),
  );
});

/** The catalog's faces of the owner, over a connection of this thread's own (query_only: it never writes). */
function read(file: string, ownerId: number): FaceTable {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('query_only = 1');
    return readFaceTable(db, ownerId);
  } finally {
    db.close();
  }
}

async function run(req: ClusterRequest): Promise<{ t: FaceTable; groups: Float64Array }> {
  const t = 'table' in req ? req.table : read(req.file, req.ownerId);
  const rejects = new Map<number, Set<number>>();
  for (let x = 0; x < t.rejectRow.length; x++) {
    const i = t.rejectRow[x]!;
    (rejects.get(i) ?? rejects.set(i, new Set()).get(i)!).add(t.rejectPerson[x]!);
  }
  const faces: ClusterFace[] = new Array(t.n);
  for (let i = 0; i < t.n; i++) {
    // A face pinned by a member (`assigned_by = 'user'`) to a person stays there (faces.store.ts rebuildOwner).
    const fixed = t.user[i] && t.person[i] ? t.person[i]! : null;
    faces[i] = { id: t.faceId[i]!, score: t.score[i]!, embedding: t.embeddings.subarray(i * t.dims, (i + 1) * t.dims), fixed, rejects: rejects.get(i) };
  }
  const found = await clusterFacesIndexed(faces, req.options);
  const groups = new Float64Array(t.n);
  for (let i = 0; i < t.n; i++) groups[i] = found.get(faces[i]!.id) ?? 0;
  return { t, groups };
}

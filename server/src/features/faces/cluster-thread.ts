/**
 * A people rebuild's clustering on a worker thread of its own (issue 25 point 4: nothing may hold the server's
 * event loop more than 50 ms while a rebuild runs).
 *
 * Why a thread and not only slices: the clustering was already cut into slices of SLICE_MS (cluster.ts), yet a
 * rebuild of 100k faces still held the loop 155–211 ms. Those stalls were the main isolate's garbage
 * collector: its heap then held every face's embedding (100k Float32Arrays), the HNSW index's 100k neighbour
 * lists (two typed arrays each) and the groups, and a major GC walks all of them in one pause. In a worker
 * they live in its own isolate and heap. The worker also reads the faces itself, over a connection of its own
 * to the catalog file (face-table.store.ts says why): the main thread receives a few flat columns (ids, persons, one
 * byte per face) and one Float64Array of groups, and never sees an embedding.
 *
 * One worker per rebuild, stopped when it answers (a rebuild is rare; an idle thread would only hold memory).
 * Under tsx the worker loads cluster-worker.ts with the same loader (about half a second of CPU to start); in
 * the built server it is cluster-worker.js beside server.js (scripts/build-server.ts).
 *
 * A worker that dies (out of memory, a crash in the native index, terminated) rejects the promise: the rebuild
 * has written nothing by then (faces.store.ts writes only after the groups came back), so its job fails
 * visibly and can be run again.
 */
import fs from 'node:fs';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { IndexedClusterOptions } from './cluster.ts';
import type { FaceColumns, FaceTable } from './face-table.store.ts';

/**
 * Whose faces to cluster: read by the worker from the catalog `file` (one snapshot), or, for a catalog in
 * memory that no other connection can open, read by the caller and given (`table`: its buffers are moved).
 */
export type ClusterRequest = ({ file: string; ownerId: number } | { table: FaceTable }) & { options?: IndexedClusterOptions };

/** The faces as the worker read them, and the group of each row. */
export interface ClusterResult {
  cols: FaceColumns;
  /** A pinned person id, a new group −1, −2, …, or 0: noise (clusterFacesIndexed). */
  groups: Float64Array;
  /** The thread's nice value while it read and clustered (cluster-worker.ts lowPriority; null: not set). */
  nice: number | null;
}

export type ClusterResponse = ({ ok: true } & ClusterResult) | { ok: false; error: string };

export interface ClusterThreadOptions {
  /** The worker's V8 limits (default none: Node's). Tests make it too small to live, to see a worker die. */
  resourceLimits?: ResourceLimits;
}

/** Where the worker module is: next to this one (cluster-worker.ts under tsx, cluster-worker.js when built). */
function workerUrl(): URL {
  const ts = new URL('./cluster-worker.ts', import.meta.url);
  return fs.existsSync(ts) ? ts : new URL('./cluster-worker.js', import.meta.url);
}

/** The owner's faces (face-id order) and the group of each, as clusterFacesIndexed gives them, from a thread of its own. */
export function clusterOnThread(req: ClusterRequest, opts: ClusterThreadOptions = {}): Promise<ClusterResult> {
  return new Promise<ClusterResult>((resolve, reject) => {
    const worker = new Worker(workerUrl(), { resourceLimits: opts.resourceLimits });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once('message', (m: ClusterResponse) => finish(() => (m.ok ? resolve({ cols: m.cols, groups: m.groups, nice: m.nice }) : reject(new Error(`The people clustering failed: ${m.error}`)))));
    worker.once('error', (e) => finish(() => reject(new Error(`The people clustering thread died: ${e.message}`))));
    worker.once('exit', (code) => finish(() => reject(new Error(`The people clustering thread stopped (exit code ${code}) before it answered.`))));
    const t = 'table' in req ? req.table : null;
    worker.postMessage(req, t ? ([t.faceId.buffer, t.person.buffer, t.user.buffer, t.score.buffer, t.embeddings.buffer] as ArrayBuffer[]) : []);
  });
}

/**
 * A people rebuild's clustering on a worker thread of its own (issue 25 point 4: nothing may hold the server's
 * event loop more than 50 ms while a rebuild runs).
 *
 * Why a thread and not only slices: the clustering was already cut into slices of SLICE_MS (cluster.ts), yet a
 * rebuild of 100k faces still held the loop 155–211 ms. Those stalls were the main isolate's garbage
 * collector: its heap then held every face's embedding (100k Float32Arrays), the HNSW index's 100k neighbour
 * lists (two typed arrays each) and the groups, and a major GC walks all of them in one pause. In a worker
 * they live in its own isolate and heap; the main thread keeps a few flat columns (ids, persons, one byte per
 * face) and receives one Float64Array of groups.
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

/** The owner's faces as flat columns, row i of each the same face (faces.store.ts FaceColumns). */
export interface ClusterRequest {
  faceId: Float64Array;
  score: Float64Array;
  /** The person a member pinned the face to; 0: not pinned. */
  fixed: Float64Array;
  /** Row-major, `dims` floats per face. */
  embeddings: Float32Array;
  dims: number;
  /** Rejections as pairs: row `rejectFace[x]` must not join person `rejectPerson[x]`. */
  rejectFace: Int32Array;
  rejectPerson: Float64Array;
  options?: IndexedClusterOptions;
}

export type ClusterResponse = { ok: true; groups: Float64Array } | { ok: false; error: string };

export interface ClusterThreadOptions {
  /** The worker's V8 limits (default none: Node's). Tests make it too small to live, to see a worker die. */
  resourceLimits?: ResourceLimits;
}

/** Where the worker module is: next to this one (cluster-worker.ts under tsx, cluster-worker.js when built). */
function workerUrl(): URL {
  const ts = new URL('./cluster-worker.ts', import.meta.url);
  return fs.existsSync(ts) ? ts : new URL('./cluster-worker.js', import.meta.url);
}

/**
 * The group of each row (a pinned person id, a new group −1, −2, …, or 0: noise), as clusterFacesIndexed gives
 * them. The request's buffers are moved to the worker (they are unusable here afterwards).
 */
export function clusterOnThread(req: ClusterRequest, opts: ClusterThreadOptions = {}): Promise<Float64Array> {
  return new Promise<Float64Array>((resolve, reject) => {
    const worker = new Worker(workerUrl(), { resourceLimits: opts.resourceLimits });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once('message', (m: ClusterResponse) => finish(() => (m.ok ? resolve(m.groups) : reject(new Error(`The people clustering failed: ${m.error}`)))));
    worker.once('error', (e) => finish(() => reject(new Error(`The people clustering thread died: ${e.message}`))));
    worker.once('exit', (code) => finish(() => reject(new Error(`The people clustering thread stopped (exit code ${code}) before it answered.`))));
    const transfer = [req.score.buffer, req.embeddings.buffer] as ArrayBuffer[];
    worker.postMessage(req, transfer);
  });
}

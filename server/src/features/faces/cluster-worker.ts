/**
 * Worker thread body for a people rebuild's clustering (started by cluster-thread.ts; not imported anywhere
 * else). It receives the owner's faces as flat columns (one Float32Array for every embedding), clusters them
 * with the rebuild's own rule (cluster.ts clusterFacesIndexed: the same code, so the same groups) and answers
 * one group per face, in the order it was given. Everything the clustering allocates (the matrix, the HNSW
 * graph, 100k neighbour lists) lives and dies in this thread's heap: the server's event loop and its garbage
 * collector never see it.
 */
import { parentPort } from 'node:worker_threads';
import { clusterFacesIndexed, type ClusterFace } from './cluster.ts';
import type { ClusterRequest, ClusterResponse } from './cluster-thread.ts';

parentPort!.once('message', (req: ClusterRequest) => {
  void run(req).then(
    (groups) => parentPort!.postMessage({ ok: true, groups } satisfies ClusterResponse, [groups.buffer as ArrayBuffer]),
    (e: unknown) => parentPort!.postMessage({ ok: false, error: e instanceof Error ? e.message : String(e) } satisfies ClusterResponse),
  );
});

async function run(req: ClusterRequest): Promise<Float64Array> {
  const { faceId, score, fixed, embeddings, dims, rejectFace, rejectPerson } = req;
  const rejects = new Map<number, Set<number>>();
  for (let x = 0; x < rejectFace.length; x++) {
    const i = rejectFace[x]!;
    (rejects.get(i) ?? rejects.set(i, new Set()).get(i)!).add(rejectPerson[x]!);
  }
  const faces: ClusterFace[] = new Array(faceId.length);
  for (let i = 0; i < faceId.length; i++) {
    faces[i] = { id: faceId[i]!, score: score[i]!, embedding: embeddings.subarray(i * dims, (i + 1) * dims), fixed: fixed[i] ? fixed[i] : null, rejects: rejects.get(i) };
  }
  const groups = await clusterFacesIndexed(faces, req.options);
  const out = new Float64Array(faces.length);
  for (let i = 0; i < faces.length; i++) out[i] = groups.get(faces[i]!.id) ?? 0;
  return out;
}

/**
 * Faces and people: YuNet detection, five-point alignment, MobileFaceNet embeddings, per-owner clustering into
 * people that keeps every correction a member made.
 *
 *   params.ts          the pipeline's numbers, the ArcFace template, the model version
 *   image-input.ts     file → upright RGB (FaceInputError when it is not an image)
 *   detect.ts          YuNet input, decoding, NMS
 *   align.ts           least-squares similarity onto the template, bilinear warp to 112×112
 *   embed.ts           MobileFaceNet (crop + mirrored crop), L2, cosine
 *   pipeline.ts        a photo's faces, on the ML runtime's pool
 *   cluster.ts         density-based clustering (threshold and min size chosen on the corpus: see there)
 *   bcubed.ts          BCubed precision / recall / F1
 *   faces.store.ts     faces, people, incremental and full clustering
 *   face-indexer.ts    the `face` index task
 *   people.service.ts  people and corrections (listPeople … rejectFace); faces.routes.ts, faces.router.ts
 */
export { FACE_MODEL_ID, FACE_PARAMS } from './params.ts';
export { analyseFaces, poolInfer as facePoolInfer, type FaceAnalysis } from './pipeline.ts';
export { CLUSTER_PARAMS, clusterFaces, clusterFacesIndexed, type ClusterFace } from './cluster.ts';
export { clusterFacesAllPairs } from './cluster-reference.ts';
export { bcubed, type BCubed } from './bcubed.ts';
export { FacesStore, type FaceRow, type PersonRow } from './faces.store.ts';
export { FaceIndexer, createFaceIndexer } from './face-indexer.ts';
export { PeopleService, type PersonView } from './people.service.ts';
export { faceResult, type FaceView } from './faces.view.ts';
export { FACES_JOBS, rebuildPeople } from './faces.jobs.ts';
export { FaceResultSchema, FaceSchema, PersonSchema } from './faces.schemas.ts';
export { carryFacesOnMerge, peopleOfItems } from './face-links.ts';

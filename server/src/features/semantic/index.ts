/**
 * Semantic search's data: CLIP vectors of photos and video frames, the indexers that make them, and zero-shot
 * tags.
 *
 *   semantic.store.ts       semantic_vectors: replace/read/reset, and the changes an in-memory index follows
 *   semantic-indexer.ts     the `semantic` and `video_semantic` index tasks
 *   semantic-indexers.ts    builds them when CLIP is installed
 *   video-frames.ts         which frames of a video, cut by ffmpeg into memory
 *   zero-shot/              classifiers (prompt ensembles), the margin rule, the `zeroshot` tags
 *   vector-index/           the vector index: nearest neighbours over the store, in memory
 *   vector-indexes.ts       one index per searched model, built in the background, following the store
 */
export { SemanticStore, PHOTO_FRAME, VECTOR_DIM, blobVector, vectorBlob, type FrameVector, type VectorChange } from './semantic.store.ts';
export { SemanticIndexer, UNREADABLE_CODE, decodeOriginal, type ImageEncoder, type SemanticIndexerDeps } from './semantic-indexer.ts';
export { createSemanticIndexers, samplingFrom, type SemanticIndexers } from './semantic-indexers.ts';
export { DEFAULT_SAMPLING, planFrames, sampleFrames, samplingMethod, type SampledFrame, type SamplingMethod, type VideoSampling } from './video-frames.ts';
export { BACKGROUND_PROMPTS, SEEDED_CLASSIFIERS, SEEDED_THRESHOLD, type ClassifierDefinition } from './zero-shot/classifiers.ts';
export { classifierScores, confidenceOf, marginOf, prototypeOf, type ClassifierPrototypes, type ClassifierScore } from './zero-shot/margin.ts';
export { ZeroShotClassifier, buildPrototypes, type ZeroShotTag } from './zero-shot/zero-shot.ts';
export { ZeroShotTagStore } from './zero-shot/zeroshot-tags.store.ts';
export { VectorIndexes, type NearestLookup } from './vector-indexes.ts';
export { VectorIndex, type NearestOptions as VectorNearestOptions, type VectorHit as VectorIndexHit } from './vector-index/index.ts';

/** The indexing feature's public surface: what other features use of it (see eslint.config.js). */
export type { Indexer, IndexerRegistry, IndexTarget } from './indexers.ts';
export { indexAsset } from './indexing.jobs.ts';
export { isTaskEnabled } from './index-tasks.ts';
export { INDEX_PIXELS_MAX_SIDE, PhotoPixels } from './photo-pixels.ts';

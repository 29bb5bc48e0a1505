/**
 * Search (issue 13 points 4 and 5): hybrid search over the embedding, OCR, filename and text channels,
 * search by image, the zero-shot classifier preview, and the plain-language query parser.
 */
export { SearchService, type SearchDeps, type SearchRequest, type SearchResponse } from './search.service.ts';
export { ExactVectorScan, type NearestVectors, type NearestOptions, type VectorHit } from './channels/nearest-vectors.ts';
/** For the assistant's planner (features/agent): the plain-language reading of a request, with the caller's catalog names. */
export { understandQuery, type CatalogNames, type Understood } from './understand-query.ts';
export { knownPlaces } from './channels/place.ts';
/** searchAssets' body and answer, for the operations that search within a set (the assistant's pins). */
export { SearchRequestSchema, SearchResponseSchema } from './search.routes.ts';

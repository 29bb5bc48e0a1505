/**
 * Search (issue 13 points 4 and 5): hybrid search over the embedding, OCR, filename and text channels,
 * search by image, the zero-shot classifier preview, and the plain-language query parser.
 */
export { SearchService, type SearchDeps, type SearchRequest, type SearchResponse } from './search.service.ts';
export { ExactVectorScan, type NearestVectors, type NearestOptions, type VectorHit } from './channels/nearest-vectors.ts';

/**
 * The browse feature's public surface: what other features use of it (see eslint.config.js). The
 * folder, map and statistics caches follow the catalog's change journal through the tracker.
 */
export type { CatalogTracker } from './catalog-tracker.ts';
/** The asset filter of queryAssets: what the plain-language query parser (features/search) produces. */
export type { AssetFilter } from './browse.routes.ts';
/** For the search (features/search): the service type (reached through the container) and the shapes it answers with. */
export type { BrowseService } from './browse.service.ts';
export { AssetFilterSchema } from './browse.routes.ts';
export { GalleryItemSchema, type GalleryItem, type GalleryList } from './browse.view.ts';
/** For queryPersonAssets (features/faces): the same body and answer as queryAssets. */
export { AssetQuerySchema, type AssetQuery } from './browse.routes.ts';
export { GalleryListSchema } from './browse.view.ts';

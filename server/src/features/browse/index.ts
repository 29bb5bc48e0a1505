/**
 * The browse feature's public surface: what other features use of it (see eslint.config.js). The
 * folder, map and statistics caches follow the catalog's versions through these.
 */
export { currentCatalog, type Journal } from './browse.lists.ts';
export { folderKey } from './browse.versions.ts';

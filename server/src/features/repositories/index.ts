/**
 * The repositories feature's public surface: what other features use of it (see eslint.config.js).
 */
export type { RepositoriesService, RepositoryLookup } from './repositories.service.ts';
export type { RepositoryRow } from './repositories.store.ts';
/** The folder inside each repository where Hearth keeps its own files (never catalogued). */
export { SYSTEM_DIR } from './marker.ts';

/**
 * The repositories feature's public surface: what other features use of it (see eslint.config.js).
 */
export type { FolderPlacement, OpenFolderInput, RepositoriesService, RepositoryLookup } from './repositories.service.ts';
/** A folder's real path, or a 422 saying why Hearth cannot use it (never repeating the path). */
export { resolveFolder } from './registration.ts';
/** The repository roles; a member may ask for a `regular` one (features/host-actions: its purpose). */
export { REPOSITORY_ROLES } from './repositories.view.ts';
export type { RepositoryRow } from './repositories.store.ts';
/** The folder inside each repository where Hearth keeps its own files (never catalogued). */
export { SYSTEM_DIR } from './marker.ts';

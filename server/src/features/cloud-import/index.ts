/** Cloud import's public surface: the service the container builds, its jobs and its router. */
export { CloudImportService, type CloudImportDeps } from './cloud-import.service.ts';
export { CLOUD_IMPORT_JOBS } from './cloud-import.jobs.ts';
export { cloudImportRouter } from './cloud-import.router.ts';

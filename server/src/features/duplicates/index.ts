/** The duplicates feature's public surface: what other features use of it (see eslint.config.js). */
export { DuplicatesService, type DuplicateFacesHook } from './duplicates.service.ts';
export { backfillWindowHashesJob } from './duplicates.jobs.ts';
export { WindowHashesBackfill } from './window-hashes.backfill.ts';

/** The duplicates feature's public surface: what other features use of it (see eslint.config.js). */
export { DuplicatesService, type DuplicateFacesHook } from './duplicates.service.ts';
export { backfillPhashesJob } from './duplicates.jobs.ts';
export { PhashBackfill } from './phash.backfill.ts';

/** The statistics feature's public surface: what other features use of it (see eslint.config.js). */
export { LOCAL_MS, LOCAL_TAKEN_MS, MAX_OFFSET_MS, liveScope, nonHeadRowids, type Scope } from './scope.ts';

/** The statistics feature's public surface: what other features use of it (see eslint.config.js). */
export { LOCAL_MS, liveScope, nonHeadRowids, type Scope } from './scope.ts';

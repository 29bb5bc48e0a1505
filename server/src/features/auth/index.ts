/** The auth feature's public surface: what other features use of it (see eslint.config.js). */
export { AuthStore } from './auth.store.ts';
export { MfaStore } from './mfa.store.ts';

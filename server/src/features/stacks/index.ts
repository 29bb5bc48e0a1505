/** The stacks feature's public surface: what other features use of it (see eslint.config.js). */
export { StacksStore } from './stacks.store.ts';

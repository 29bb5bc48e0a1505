/** The stacks feature's public surface: its parts of the viewer and the selection bar (slots, filled in app/). */
export { StackStrip } from './StackStrip';
export { useCreateStack } from './stacks-api';

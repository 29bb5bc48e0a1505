/**
 * The assistant feature's public surface: the header's button and the panel (placed by app/SignedInApp.tsx
 * through the layout), and "Ask about this" (a viewer slot, app/viewer-slot-fills.ts). Importing it brings
 * assistant.css.
 */
import './assistant.css';

export { AssistantButton } from './AssistantButton';
export { AssistantPanel } from './AssistantPanel';
export { useAskAbout } from './use-ask-about';

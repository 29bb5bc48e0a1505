/** The viewer's "Ask about this" (a slot of photos/viewer-slots.tsx): opens the panel about the photo, when the assistant is on. */
import { useAssistantEnabled } from './agent-api';
import { assistantStore } from './assistant-store';

const askAbout = (photo: { assetId: string; label: string }) => assistantStore.open(photo);

export function useAskAbout(): ((photo: { assetId: string; label: string }) => void) | null {
  return useAssistantEnabled() ? askAbout : null;
}

/**
 * The Assistant panel: on a wide screen a side panel at the right that leaves the page usable (the page
 * makes room for it: assistant.css); on a phone a full-screen sheet with a close button. Its header has
 * "New chat" and Close (Escape closes too); the conversation is a log (read out as it grows); the composer
 * is at the foot.
 */
import { Suspense, useEffect } from 'react';
import { useMe } from '../../api/use-me';
import { lazyPage } from '../../lib/lazy-page';
import { useAssistantEnabled } from './agent-api';
import { loadConversation, useAssistantState } from './assistant-store';

// The chat (its cards, the mention lists, the photos' grid) is fetched when the panel first opens, not with the first screen.
const ChatPanel = lazyPage(() => import('./ChatPanel').then((m) => m.ChatPanel));

export function AssistantPanel() {
  const me = useMe();
  const enabled = useAssistantEnabled();
  const { open } = useAssistantState();
  const userId = me?.user_id;
  useEffect(() => {
    if (userId) loadConversation(userId);
  }, [userId]);
  useEffect(() => {
    // The page makes room for the side panel (assistant.css); a phone's sheet covers it instead.
    document.documentElement.dataset.assistant = open && enabled ? 'open' : 'closed';
    return () => {
      delete document.documentElement.dataset.assistant;
    };
  }, [open, enabled]);
  if (!enabled || !open) return null;
  return (
    <Suspense fallback={null}>
      <ChatPanel />
    </Suspense>
  );
}

/** The header's Assistant button (every signed-in screen), shown only while the assistant is on. */
import { Icon } from '../../components/Icon';
import { useAssistantEnabled } from './agent-api';
import { assistantStore, useAssistantState } from './assistant-store';

export function AssistantButton() {
  const enabled = useAssistantEnabled();
  const { open } = useAssistantState();
  if (!enabled) return null;
  return (
    <button type="button" className="pill-button assistant-button" aria-label="Assistant" aria-expanded={open} aria-controls="assistant-panel" onClick={assistantStore.toggle}>
      <Icon name="assistant" />
      <span className="assistant-button__label">Assistant</span>
    </button>
  );
}

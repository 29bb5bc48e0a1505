/**
 * Whether the assistant is on (an administrator turned it on: `llm.agent_enabled`), for every signed-in
 * screen that offers it: the Board's navigation entry here, the chat panel's button (features/assistant).
 *
 * Decision: read `getCapabilities` (GET /api/v1/capabilities, public, no secrets), whose `llm.agent_enabled`
 * says it in one small answer every member may read. The other ways were worse: the settings are the
 * administrator's only, and probing the agent group for its 404 `agent_disabled` costs a pin listing (live pins
 * re-run their queries) and reads a failure as an answer. A minute of staleness is fine (an administrator turns
 * it on once); the settings page refreshes this key when it saves, so the change shows at once on that tab.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';

export const ASSISTANT_ENABLED_KEY = ['assistant', 'enabled'] as const;

export function useAssistantEnabled(): boolean {
  const caps = useQuery({
    queryKey: ASSISTANT_ENABLED_KEY,
    queryFn: ({ signal }) => request(api.GET('/api/v1/capabilities', { signal })),
    select: (c) => c.llm.agent_enabled,
    staleTime: 60_000,
  });
  return caps.data === true;
}

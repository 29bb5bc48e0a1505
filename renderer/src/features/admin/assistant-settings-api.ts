/**
 * Server state of the assistant's settings: the `llm` section of the system settings (getSystemSettings,
 * updateSystemSettings) and "Test connection" (validateLlmSettings, which stores nothing).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import type { components } from '../../api/schema';
import { ASSISTANT_ENABLED_KEY } from '../assistant-board';

export type LlmSettings = components['schemas']['SystemSettings']['llm'];
export type LlmPatch = NonNullable<components['schemas']['SystemSettingsPatch']['llm']>;
export type LlmCandidate = components['schemas']['LlmSettingsCandidate'];
export type LlmValidation = components['schemas']['LlmValidation'];
export type Provider = LlmSettings['provider'];

/** What differs per kind of model server (as server/src/adapters/llm/providers.ts has it). */
export const PROVIDERS: Record<Provider, { label: string; defaultBaseUrl: string | null; needsKey: boolean }> = {
  none: { label: 'None: the built-in planner only', defaultBaseUrl: null, needsKey: false },
  ollama: { label: 'Ollama', defaultBaseUrl: 'http://127.0.0.1:11434/v1', needsKey: false },
  lmstudio: { label: 'LM Studio', defaultBaseUrl: 'http://127.0.0.1:1234/v1', needsKey: false },
  llamacpp: { label: 'llama.cpp server', defaultBaseUrl: 'http://127.0.0.1:8080/v1', needsKey: false },
  openai: { label: 'OpenAI', defaultBaseUrl: 'https://api.openai.com/v1', needsKey: true },
  custom: { label: 'Another OpenAI-compatible server', defaultBaseUrl: null, needsKey: false },
};

export function useSaveLlmSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (llm: LlmPatch) => request(api.PATCH('/api/v1/settings/system', { body: { llm } })),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.systemSettings, settings);
      // The Board's navigation entry and the chat panel follow "Turn the assistant on" at once on this tab.
      void queryClient.invalidateQueries({ queryKey: ASSISTANT_ENABLED_KEY });
    },
  });
}

export function useTestLlmConnection() {
  return useMutation({ mutationFn: (candidate: LlmCandidate) => request(api.POST('/api/v1/settings/system/validate-llm', { body: candidate })) });
}

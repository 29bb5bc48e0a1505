/** The calls of Account → Signed-in devices: my live sessions, and signing out one or every other. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { request } from '../../../api/problem';
import type { components } from '../../../api/schema';

export type SignedInDevice = components['schemas']['SignedInDevice'];

export const mySessionsKey = ['auth', 'sessions'] as const;

export function useMySessions() {
  return useQuery({ queryKey: mySessionsKey, queryFn: () => request(api.GET('/api/v1/auth/sessions')) });
}

export function useSignOutDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => request(api.DELETE('/api/v1/auth/sessions/{session_id}', { params: { path: { session_id: sessionId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mySessionsKey }),
  });
}

export function useSignOutOtherDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.POST('/api/v1/auth/sessions/revoke-others')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mySessionsKey }),
  });
}

/** "Firefox on Windows"; a side that is unknown is left out rather than shown as "Unknown on Unknown". */
export function deviceName(d: Pick<SignedInDevice, 'browser' | 'system'>): string {
  const browser = d.browser === 'Unknown' ? null : d.browser;
  const system = d.system === 'Unknown' ? null : d.system;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}

/**
 * The calls of "A folder on the home machine": a member's host actions (asking the home machine to add a folder
 * there as a repository), created with an Idempotency-Key, followed live through the host-action event stream,
 * and cancelled, tried again or settled (a conflict's choice) with the version the member saw.
 *
 * Live: one stream per page (useHostActionStream) writes each action it hears about into the query cache, so the
 * list and every card change the moment the person at the home machine answers. While the stream is down (a
 * proxy that buffers, a phone waking up) the list is read again every few seconds as long as an action waits.
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { readEventStream } from '../../api/event-stream';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { libraryKeys } from '../../photos/library-api';

export type HostAction = components['schemas']['HostAction'];
export type HostActionStatus = HostAction['status'];
export type HostActionConflict = NonNullable<components['schemas']['HostActionConflict']>;
export type Resolution = HostActionConflict['allowed_resolutions'][number];

export const hostActionKeys = {
  all: ['host-actions'] as const,
  list: ['host-actions', 'list'] as const,
};

/** Waiting for someone: the home machine (pending, presented, running) or the member (needs_decision). */
export const isWaiting = (s: HostActionStatus) => s === 'pending' || s === 'presented' || s === 'running' || s === 'needs_decision';
export const isCancellable = (s: HostActionStatus) => s === 'pending' || s === 'presented' || s === 'needs_decision';
export const isRetryable = (s: HostActionStatus) => s === 'failed' || s === 'expired' || s === 'cancelled';

/** How often the list is read while an action waits and the stream is down. */
const POLL_MS = 3000;
/** Waits before opening the stream again after it failed, longest last. */
const RECONNECT_MS = [1000, 3000, 10_000];

export function useHostActions(streamLive: boolean) {
  return useQuery({
    queryKey: hostActionKeys.list,
    queryFn: () => request(api.GET('/api/v1/host-actions', { params: { query: { limit: 50 } } })),
    refetchInterval: (q) => (!streamLive && q.state.data?.some((a) => isWaiting(a.status)) ? POLL_MS : false),
  });
}

/**
 * Puts one action (from an answer or the stream) into the cached list, newest first, unless the list holds a newer
 * version. When it has just completed, the library is read again: the folder's photos are coming in (the grids read
 * before, for example the Photos page seen at sign-in, would otherwise show what they held then).
 */
export function rememberAction(queryClient: QueryClient, action: HostAction): void {
  const before = queryClient.getQueryData<HostAction[]>(hostActionKeys.list)?.find((a) => a.id === action.id);
  if (action.status === 'completed' && before?.status !== 'completed') void queryClient.invalidateQueries({ queryKey: libraryKeys.all });
  queryClient.setQueryData<HostAction[]>(hostActionKeys.list, (list) => {
    if (!list) return list;
    const at = list.findIndex((a) => a.id === action.id);
    if (at < 0) return [action, ...list];
    if (list[at]!.version > action.version) return list;
    const next = list.slice();
    next[at] = action;
    return next;
  });
}

/**
 * Follows the member's host actions over the event stream while mounted; answers whether it is live. Another
 * member's actions never come (the server sends each person theirs; an administrator hears everyone's, as the
 * list shows them).
 */
export function useHostActionStream(): boolean {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const stop = new AbortController();
    void (async () => {
      for (let attempt = 0; !stop.signal.aborted; attempt++) {
        try {
          await readEventStream(
            '/api/v1/host-actions/stream',
            (event, data) => {
              if (event === 'ready') {
                setLive(true);
                attempt = 0;
                // Whatever changed while the stream was down.
                void queryClient.invalidateQueries({ queryKey: hostActionKeys.list });
              } else if (event === 'host_action' && data && typeof data === 'object') rememberAction(queryClient, data as HostAction);
            },
            stop.signal,
          );
        } catch {
          /* down: polled until it is back */
        }
        setLive(false);
        if (stop.signal.aborted) return;
        await new Promise((r) => setTimeout(r, RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]));
      }
    })();
    return () => stop.abort();
  }, [queryClient]);
  return live;
}

export function useCreateHostAction() {
  const queryClient = useQueryClient();
  return useMutation({
    /** `key`: one per request the member made, so that sending it again after a lost answer makes no second action. */
    mutationFn: ({ name, key }: { name: string; key: string }) =>
      request(api.POST('/api/v1/host-actions', { params: { header: { 'idempotency-key': key } }, body: { kind: 'open_repository', name, purpose: 'regular' } })),
    onSuccess: (action) => rememberAction(queryClient, action),
  });
}

const precondition = (a: HostAction) => ({ expected_version: a.version });

export function useCancelHostAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (a: HostAction) => request(api.POST('/api/v1/host-actions/{id}/cancel', { params: { path: { id: a.id }, query: precondition(a) } })),
    onSuccess: (action) => rememberAction(queryClient, action),
    onError: () => queryClient.invalidateQueries({ queryKey: hostActionKeys.list }),
  });
}

export function useRetryHostAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (a: HostAction) => request(api.POST('/api/v1/host-actions/{id}/retry', { params: { path: { id: a.id }, query: precondition(a) } })),
    onSuccess: (action) => rememberAction(queryClient, action),
    onError: () => queryClient.invalidateQueries({ queryKey: hostActionKeys.list }),
  });
}

export function useDecideHostAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, resolution }: { action: HostAction; resolution: Resolution }) =>
      request(api.POST('/api/v1/host-actions/{id}/recovery', { params: { path: { id: action.id } }, body: { resolution, ...precondition(action) } })),
    onSuccess: (action) => rememberAction(queryClient, action),
    onError: () => queryClient.invalidateQueries({ queryKey: hostActionKeys.list }),
  });
}

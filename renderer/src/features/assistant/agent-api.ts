/**
 * The assistant's server state: whether it is on, the chat and resume streams, cancel, a ref's photos,
 * pinning, the people and albums that mentions offer, and the member's conversations (list, read, forget).
 *
 * Whether the assistant is on: useAssistantEnabled (features/assistant-board), shared with the Board.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { postEventStream } from '../../api/event-stream';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { BOARD_PINS_KEY } from '../assistant-board';

import type { ChatRequest, StoredThread, StreamEvent, Widget } from './agent-types';

export type { ChatRequest, Mention, StreamEvent, Widget } from './agent-types';
export type ResumeRequest = components['schemas']['AgentResumeRequest'];

export const agentKeys = {
  refAssets: (threadId: string, refId: string) => ['agent', 'ref', threadId, refId, 'assets'] as const,
  /** The Board's list: a pin made here shows there at once. */
  pins: BOARD_PINS_KEY,
  people: ['agent', 'mention', 'people'] as const,
  albums: ['agent', 'mention', 'albums'] as const,
  /** A ref's own facts (getAgentRef): a spark card's bars, and whether a reopened card's ref still lives. */
  ref: (threadId: string, refId: string) => ['agent', 'ref', threadId, refId] as const,
  /** The Conversations list: read again when a stream ends (a new thread, a status changed) or one is forgotten. */
  threads: ['agent', 'threads'] as const,
};

/** Conversations per page of the list (listAgentThreads' default). */
const THREADS_PAGE = 30;

/** Whether the assistant is on: one hook for the panel and the Board (features/assistant-board says how). */
export { useAssistantEnabled } from '../assistant-board';

export function chatStream(body: ChatRequest, onEvent: (e: StreamEvent) => void, signal: AbortSignal): Promise<void> {
  return postEventStream('/api/v1/agent/chat', body, (event, data) => onEvent({ event, data: (data ?? {}) as Record<string, unknown> }), signal);
}

export function resumeStream(body: ResumeRequest, onEvent: (e: StreamEvent) => void, signal: AbortSignal): Promise<void> {
  return postEventStream('/api/v1/agent/chat/resume', body, (event, data) => onEvent({ event, data: (data ?? {}) as Record<string, unknown> }), signal);
}

export function cancelRun(threadId: string, runId: string) {
  return request(api.POST('/api/v1/agent/chat/cancel', { body: { thread_id: threadId, run_id: runId } }));
}

/** The first page of a ref's photos (a card opens them; refs are capped, 200 is the page's maximum). */
export function useRefAssets(threadId: string, refId: string) {
  return useQuery({
    queryKey: agentKeys.refAssets(threadId, refId),
    queryFn: ({ signal }) => request(api.GET('/api/v1/agent/refs/{id}/assets', { params: { path: { id: refId }, query: { thread_id: threadId, limit: 200 } }, signal })),
    staleTime: 30_000,
  });
}

export function usePinRef() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { thread_id: string; ref_id: string; title?: string; widget?: Widget }) => request(api.POST('/api/v1/agent/pins', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.pins }),
  });
}

/**
 * Whether the member has pinned this ref of this conversation already: a reopened card says Pinned, as it did
 * when it was pinned. Read from the Board's own list (the same key and the same request), so pinning here, or
 * unpinning on the Board, shows on both.
 */
export function useIsPinned(threadId: string, refId: string): boolean {
  const pins = useQuery({ queryKey: agentKeys.pins, queryFn: ({ signal }) => request(api.GET('/api/v1/agent/pins', { signal })) });
  return (pins.data ?? []).some((p) => p.thread_id === threadId && p.ref_id === refId);
}

/** The named people offered after `@` (the first 200: a household names few). */
export function useMentionPeople(enabled: boolean) {
  return useQuery({
    queryKey: agentKeys.people,
    enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const page = await request(api.GET('/api/v1/people', { params: { query: { limit: 200, offset: 0 } }, signal }));
      return page.people.filter((p): p is typeof p & { name: string } => !!p.name?.trim()).map((p) => ({ id: p.person_id, label: p.name }));
    },
  });
}

/** The member's own albums offered after `#` (the server resolves only its own: a shared one would be dropped). */
export function useMentionAlbums(enabled: boolean) {
  return useQuery({
    queryKey: agentKeys.albums,
    enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const page = await request(api.GET('/api/v1/albums', { params: { query: { limit: 100, offset: 0 } }, signal }));
      return page.albums.filter((a) => a.role === 'owner').map((a) => ({ id: a.album_id, label: a.album_name }));
    },
  });
}

/** A ref's own facts (getAgentRef); an expired ref is a 404 (refs expire two hours after their last use). */
export function useAgentRef(threadId: string, refId: string) {
  return useQuery({
    queryKey: agentKeys.ref(threadId, refId),
    queryFn: ({ signal }) => request(api.GET('/api/v1/agent/refs/{id}', { params: { path: { id: refId }, query: { thread_id: threadId } }, signal })),
    staleTime: 30_000,
    retry: false,
  });
}

/** The member's conversations, the latest first, a page at a time. */
export function useThreads() {
  return useInfiniteQuery({
    queryKey: agentKeys.threads,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => request(api.GET('/api/v1/agent/threads', { params: { query: { limit: THREADS_PAGE, offset: pageParam } }, signal })),
    getNextPageParam: (last) => {
      const next = last.pagination.offset + last.threads.length;
      return last.threads.length > 0 && next < last.total ? next : undefined;
    },
  });
}

/** One conversation with its messages and the confirmations still waiting (read when the panel reopens it). */
export function fetchThread(threadId: string, signal: AbortSignal): Promise<StoredThread> {
  return request(api.GET('/api/v1/agent/threads/{id}', { params: { path: { id: threadId } }, signal }));
}

/** Forgets a conversation (its pins stay on the Board; 409 while it is still answering). */
export function useForgetThread() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (threadId: string) => request(api.DELETE('/api/v1/agent/threads/{id}', { params: { path: { id: threadId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.threads }),
  });
}

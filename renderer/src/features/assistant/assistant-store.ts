/**
 * The assistant's state outside React: whether the panel is open and which of its views shows (the chat or
 * the Conversations list), the photo it was asked about, and the conversation (its thread and turns).
 * Outside React because the panel is opened from places that do not render it (the header's button, the
 * viewer's "Ask about this"), and the conversation outlives the panel being closed.
 *
 * Decision (thread history): the server keeps the conversations (listAgentThreads, getAgentThread); this
 * browser keeps only the current thread's id, per member, in local storage, so a reload reopens it. Its turns
 * are read from the server (history.ts) when the panel shows a thread it has not loaded (`loaded` is the
 * thread whose turns are in `turns`; a new chat's turns are live from its streams). Nothing else is kept here:
 * a card is kept by the server as its `show` receipt, and shown again while its ref lives.
 */
import { useSyncExternalStore } from 'react';
import type { Turn } from './transcript';

export interface AskedPhoto {
  assetId: string;
  label: string;
}

export type AssistantView = 'chat' | 'conversations';

export interface AssistantState {
  open: boolean;
  view: AssistantView;
  about: AskedPhoto | null;
  threadId: string | null;
  /** The thread whose turns `turns` holds (null: a new chat, or one not read yet). */
  loaded: string | null;
  turns: Turn[];
}

const storageKey = (userId: string) => `hearth.assistant.${userId}`;

const EMPTY: AssistantState = { open: false, view: 'chat', about: null, threadId: null, loaded: null, turns: [] };
let state: AssistantState = EMPTY;
let owner: string | null = null;
const listeners = new Set<() => void>();

function set(next: Partial<AssistantState>): void {
  const threadChanged = 'threadId' in next && next.threadId !== state.threadId;
  state = { ...state, ...next };
  if (owner && threadChanged) {
    try {
      localStorage.setItem(storageKey(owner), JSON.stringify({ threadId: state.threadId }));
    } catch {
      // storage full or off: the conversation still works for this page's life
    }
  }
  for (const l of listeners) l();
}

/** Loads the member's current thread id (once per member: signing in as another starts from theirs). */
export function loadConversation(member: string | number): void {
  const userId = String(member);
  if (owner === userId) return;
  owner = userId;
  let saved: { threadId?: unknown } = {};
  try {
    saved = JSON.parse(localStorage.getItem(storageKey(userId)) ?? '{}') as typeof saved;
  } catch {
    saved = {};
  }
  state = { ...EMPTY, threadId: typeof saved.threadId === 'string' ? saved.threadId : null };
  for (const l of listeners) l();
}

export const assistantStore = {
  get: () => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  open: (about?: AskedPhoto) => set({ open: true, ...(about ? { about, view: 'chat' as const } : {}) }),
  close: () => set({ open: false }),
  toggle: () => set({ open: !state.open }),
  showView: (view: AssistantView) => set({ view }),
  clearAbout: () => set({ about: null }),
  /** The thread a new chat's first answer started: its turns are the live ones. */
  setThread: (threadId: string) => set({ threadId, loaded: threadId }),
  addTurn: (turn: Turn) => set({ turns: [...state.turns, turn] }),
  updateTurn: (id: string, change: (t: Turn) => Turn) => set({ turns: state.turns.map((t) => (t.id === id ? change(t) : t)) }),
  /** Another conversation, to be read from the server (the chat view shows it as it loads). */
  openThread: (threadId: string) => set({ threadId, loaded: null, turns: [], view: 'chat' }),
  /** A conversation read from the server (unless the member went to another meanwhile). */
  showThread: (threadId: string, turns: Turn[]) => {
    if (state.threadId === threadId) set({ loaded: threadId, turns });
  },
  /** A new chat, in the chat view (or staying in the list, when the conversation open was just forgotten). */
  newChat: (view: AssistantView = 'chat') => set({ threadId: null, loaded: null, turns: [], about: null, view }),
};

export function useAssistantState(): AssistantState {
  return useSyncExternalStore(assistantStore.subscribe, assistantStore.get);
}

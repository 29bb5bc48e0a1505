/**
 * The assistant's state outside React: whether the panel is open, the photo it was asked about, and the
 * conversation (its thread and turns). Outside React because the panel is opened from places that do not
 * render it (the header's button, the viewer's "Ask about this"), and the conversation outlives the panel
 * being closed.
 *
 * Decision (thread history): no operation lists a member's threads, so the current thread id and its turns
 * are kept in this browser's local storage, per member (the last MAX_TURNS turns): a reload goes on in the
 * same conversation; "New chat" starts another (the server starts a thread when none is given). Refs
 * expire on the server two hours after their last use, so a card from an old conversation may no longer
 * open: it says so in words.
 */
import { useSyncExternalStore } from 'react';
import type { Turn } from './transcript';

export interface AskedPhoto {
  assetId: string;
  label: string;
}

export interface AssistantState {
  open: boolean;
  about: AskedPhoto | null;
  threadId: string | null;
  turns: Turn[];
}

const MAX_TURNS = 40;
const storageKey = (userId: string) => `hearth.assistant.${userId}`;

let state: AssistantState = { open: false, about: null, threadId: null, turns: [] };
let owner: string | null = null;
const listeners = new Set<() => void>();

function set(next: Partial<AssistantState>): void {
  state = { ...state, ...next };
  if (owner && ('turns' in next || 'threadId' in next)) {
    try {
      // A turn still streaming when the page goes is kept as it stood, marked stopped on load (below).
      localStorage.setItem(storageKey(owner), JSON.stringify({ threadId: state.threadId, turns: state.turns.slice(-MAX_TURNS) }));
    } catch {
      // storage full or off: the conversation still works for this page's life
    }
  }
  for (const l of listeners) l();
}

/** Loads the member's conversation (once per member: signing in as another starts from theirs). */
export function loadConversation(member: string | number): void {
  const userId = String(member);
  if (owner === userId) return;
  owner = userId;
  let saved: { threadId?: unknown; turns?: unknown } = {};
  try {
    saved = JSON.parse(localStorage.getItem(storageKey(userId)) ?? '{}') as typeof saved;
  } catch {
    saved = {};
  }
  const turns = Array.isArray(saved.turns) ? (saved.turns as Turn[]).map((t) => (t.status === 'streaming' ? { ...t, status: 'cancelled' as const } : t)) : [];
  state = { open: false, about: null, threadId: typeof saved.threadId === 'string' ? saved.threadId : null, turns };
  for (const l of listeners) l();
}

export const assistantStore = {
  get: () => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  open: (about?: AskedPhoto) => set({ open: true, ...(about ? { about } : {}) }),
  close: () => set({ open: false }),
  toggle: () => set({ open: !state.open }),
  clearAbout: () => set({ about: null }),
  setThread: (threadId: string | null) => set({ threadId }),
  addTurn: (turn: Turn) => set({ turns: [...state.turns, turn] }),
  updateTurn: (id: string, change: (t: Turn) => Turn) => set({ turns: state.turns.map((t) => (t.id === id ? change(t) : t)) }),
  newChat: () => set({ threadId: null, turns: [], about: null }),
};

export function useAssistantState(): AssistantState {
  return useSyncExternalStore(assistantStore.subscribe, assistantStore.get);
}

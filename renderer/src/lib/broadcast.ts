/**
 * Tells the other tabs of this browser that the session changed, so a sign-out in one tab signs the
 * others out at once and a sign-in (which replaces the shared refresh cookie) makes them pick up
 * the new session instead of failing on their next call.
 */
export type SessionMessage = { type: 'signed-in' } | { type: 'signed-out' };

const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel('hearth-session') : null;

export function announce(message: SessionMessage): void {
  channel?.postMessage(message);
}

export function onAnnouncement(listener: (message: SessionMessage) => void): () => void {
  if (!channel) return () => {};
  const handler = (event: MessageEvent<SessionMessage>) => listener(event.data);
  channel.addEventListener('message', handler);
  return () => channel.removeEventListener('message', handler);
}

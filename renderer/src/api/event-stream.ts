/**
 * Server-sent event streams of the API (upload receipts, host actions), read with fetch and a streamed body:
 * EventSource cannot send the bearer header. Renews the access token once when the server answers 401, like
 * the API client does.
 */
import { session } from './session';

/**
 * Reads a server-sent event stream until it ends, calling onEvent for each event. Throws on a
 * non-200 answer (after one renewal on 401), a network failure, or when aborted.
 */
export async function readEventStream(url: string, onEvent: (event: string, data: unknown) => void, signal: AbortSignal): Promise<void> {
  const open = (token: string | null) =>
    fetch(url, {
      headers: { Accept: 'text/event-stream', 'X-Api-Variant': 'A', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  const token = await session.tokenForRequest();
  let res = await open(token);
  if (res.status === 401 && token) {
    const renewed = await session.tokenAfterRejection(token);
    if (renewed) res = await open(renewed);
  }
  if (!res.ok || !res.body) throw new Error(`The status stream answered HTTP ${res.status}.`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (!data.length) continue;
      let parsed: unknown = data.join('\n');
      try {
        parsed = JSON.parse(parsed as string);
      } catch {
        /* keep the text */
      }
      onEvent(event, parsed);
    }
  }
}

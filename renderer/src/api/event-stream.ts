/**
 * Server-sent event streams of the API (upload receipts, host actions, the assistant's answers), read with
 * fetch and a streamed body: EventSource cannot send the bearer header, nor POST a body. Renews the access
 * token once when the server answers 401, like the API client does.
 */
import { ApiError, toApiError } from './problem';
import { session } from './session';

type OnEvent = (event: string, data: unknown) => void;

/**
 * Reads a server-sent event stream until it ends, calling onEvent for each event. Throws on a
 * non-200 answer (after one renewal on 401), a network failure, or when aborted.
 */
export async function readEventStream(url: string, onEvent: OnEvent, signal: AbortSignal): Promise<void> {
  const res = await open(url, undefined, signal);
  if (!res.ok || !res.body) throw new Error(`The status stream answered HTTP ${res.status}.`);
  await readEvents(res.body, onEvent);
}

/**
 * POSTs a JSON body to an operation that answers with a stream (the assistant's chat and resume) and reads
 * it to its end. A refusal before the stream starts (a problem+json answer: 404, 409, 422) throws an
 * ApiError with the server's words, as the typed client's calls do.
 */
export async function postEventStream(url: string, body: unknown, onEvent: OnEvent, signal: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await open(url, JSON.stringify(body), signal);
  } catch (e) {
    if (signal.aborted) throw e;
    throw new ApiError(0, 'network', 'Hearth could not be reached. Check the connection and try again.');
  }
  if (!res.ok || !res.body) {
    const problem: unknown = await res.json().catch(() => null);
    throw toApiError(problem, res);
  }
  await readEvents(res.body, onEvent);
}

async function open(url: string, body: string | undefined, signal: AbortSignal): Promise<Response> {
  const send = (token: string | null) =>
    fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        Accept: 'text/event-stream',
        'X-Api-Variant': 'A',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body }),
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  const token = await session.tokenForRequest();
  let res = await send(token);
  if (res.status === 401 && token) {
    const renewed = await session.tokenAfterRejection(token);
    if (renewed) res = await send(renewed);
  }
  return res;
}

async function readEvents(body: NonNullable<Response['body']>, onEvent: OnEvent): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
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

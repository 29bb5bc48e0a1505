/**
 * The two requests openapi-fetch cannot make well: a chunk upload with upload-progress events
 * (XMLHttpRequest), and the receipt event stream (fetch with a streamed body: EventSource cannot
 * send the bearer header, and streamUploadStatus takes no media token). Both renew the access
 * token once when the server answers 401, like the API client does.
 */
import { session } from '../../api/session';

export interface FormResult {
  status: number;
  body: unknown;
  retryAfterSeconds: number | null;
}

export class NetworkError extends Error {
  constructor() {
    super('The connection to Hearth was lost.');
    this.name = 'NetworkError';
  }
}

export const abortError = () => new DOMException('The upload was stopped.', 'AbortError');
export const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

function sendForm(url: string, form: FormData, token: string | null, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<FormResult> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('X-Api-Variant', 'A');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
    };
    const onAbort = () => xhr.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      let body: unknown = xhr.responseText;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        /* not JSON: a proxy's error page */
      }
      const retry = Number(xhr.getResponseHeader('Retry-After'));
      resolve({ status: xhr.status, body, retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? retry : null });
    };
    xhr.onerror = () => {
      done();
      reject(new NetworkError());
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    xhr.send(form);
  });
}

/** POSTs a multipart form with progress (0..1 of the request body), renewing the session once on 401. */
export async function postForm(url: string, makeForm: () => FormData, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<FormResult> {
  const token = await session.tokenForRequest();
  const first = await sendForm(url, makeForm(), token, onProgress, signal);
  if (first.status !== 401 || !token) return first;
  const renewed = await session.tokenAfterRejection(token);
  if (!renewed) return first;
  onProgress(0);
  return sendForm(url, makeForm(), renewed, onProgress, signal);
}

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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A random id usable as an upload session id. crypto.randomUUID needs HTTPS; households often use plain HTTP on the LAN. */
export function randomId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

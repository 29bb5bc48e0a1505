/**
 * The request openapi-fetch cannot make well: a chunk upload with upload-progress events
 * (XMLHttpRequest), renewing the access token once when the server answers 401, like the API client
 * does. The receipt event stream is read with api/event-stream.ts.
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

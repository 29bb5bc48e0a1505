/**
 * One chunk of a Takeout part, PUT with upload-progress events (XMLHttpRequest: fetch reports no upload progress),
 * renewing the access token once when the server answers 401, as the API client does. The chunk is a slice of the
 * File: the browser reads it from disk as it sends, so a 50 GB part never sits in memory.
 */
import { session } from '../../api/session';

export interface ChunkAnswer {
  status: number;
  body: unknown;
}

/** The connection failed (no answer at all): worth trying again. */
export class ChunkNetworkError extends Error {
  constructor() {
    super('The connection to Hearth was lost.');
    this.name = 'ChunkNetworkError';
  }
}

export const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

function send(url: string, chunk: Blob, range: string, token: string | null, onProgress: (sent: number) => void, signal: AbortSignal): Promise<ChunkAnswer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new DOMException('Stopped.', 'AbortError'));
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('X-Api-Variant', 'A');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('Content-Range', range);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    const onAbort = () => xhr.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        /* not JSON: a proxy's error page */
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => {
      done();
      reject(new ChunkNetworkError());
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(new DOMException('Stopped.', 'AbortError'));
    };
    xhr.send(chunk);
  });
}

/** PUTs `chunk` at `first` of a part of `size` bytes; `onProgress` gets the bytes of this chunk sent so far. */
export async function putChunk(uploadId: string, chunk: Blob, first: number, size: number, onProgress: (sent: number) => void, signal: AbortSignal): Promise<ChunkAnswer> {
  const url = `/api/v1/cloud/takeout/uploads/${encodeURIComponent(uploadId)}`;
  const range = `bytes ${first}-${first + chunk.size - 1}/${size}`;
  const token = await session.tokenForRequest();
  const answer = await send(url, chunk, range, token, onProgress, signal);
  if (answer.status !== 401 || !token) return answer;
  const renewed = await session.tokenAfterRejection(token);
  if (!renewed) return answer;
  onProgress(0);
  return send(url, chunk, range, renewed, onProgress, signal);
}

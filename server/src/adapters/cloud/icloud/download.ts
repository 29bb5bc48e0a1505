/**
 * Fetching one file from iCloud's content hosts into the staging file: resumed with a Range request from
 * what an earlier attempt left, streamed to disk (never held in memory), checked against the size CloudKit
 * listed. Only content hosts are contacted: a download address or redirect pointing anywhere else is
 * refused, so no request of ours goes to a host Apple did not name for content.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import { ProviderError, type DownloadOptions } from '../provider.ts';
import { networkError, type FetchLike } from './apple-http.ts';
import { isContentHost, type ICloudEndpoints } from './endpoints.ts';
import type { ResourceLocation } from './records.ts';

const MAX_REDIRECTS = 3;

/** How long a download may go without a byte before it counts as stalled. */
const STALL_MS = 60_000;

function refuse(url: URL): ProviderError {
  return new ProviderError('redirect_refused', `iCloud pointed the download at ${url.hostname}, which is not an iCloud content host; not followed.`);
}

async function open(fetchImpl: FetchLike, endpoints: ICloudEndpoints, start: URL, offset: number, signal: AbortSignal): Promise<Response> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!isContentHost(endpoints, url)) throw refuse(url);
    let res: Response;
    try {
      res = await fetchImpl(url, { headers: offset > 0 ? { Range: `bytes=${offset}-` } : {}, redirect: 'manual', signal });
    } catch (e) {
      networkError(e, signal, "iCloud's content service");
    }
    if (res.status < 300 || res.status >= 400) return res;
    await res.body?.cancel();
    const location = res.headers.get('location');
    if (!location) throw new ProviderError('protocol', `iCloud's content service answered HTTP ${res.status} without a location.`);
    url = new URL(location, url);
  }
  throw new ProviderError('protocol', "iCloud's content service redirected too many times.", true);
}

function statusError(status: number): ProviderError {
  if (status === 401) return new ProviderError('session_expired', 'Apple no longer accepts the iCloud session: sign in again.');
  if (status === 403 || status === 404 || status === 410) return new ProviderError('not_found', `iCloud no longer offers this file (HTTP ${status}).`, status === 403);
  if (status === 503 || status === 429) return new ProviderError('service_unavailable', `iCloud's content service is unavailable for now (HTTP ${status}).`, true);
  return new ProviderError('protocol', `iCloud's content service answered HTTP ${status}.`, status >= 500);
}

/** The first byte a 206 answer holds ("bytes 100-199/200"), or null. */
function rangeStart(res: Response): number | null {
  const m = /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(res.headers.get('content-range') ?? '');
  return m ? Number(m[1]) : null;
}

export async function downloadTo(fetchImpl: FetchLike, endpoints: ICloudEndpoints, location: ResourceLocation, dest: string, opts: DownloadOptions): Promise<void> {
  // Resume only from bytes that are really there (and not past the file's end).
  const have = fs.existsSync(dest) ? fs.statSync(dest).size : 0;
  let offset = Math.min(Math.max(0, opts.offset), have, location.size ?? Number.MAX_SAFE_INTEGER);
  if (location.size !== null && offset === location.size && have === offset) return;
  // Bytes past the offset are from an attempt that is not being continued: appending after them would corrupt the file.
  if (offset > 0 && have > offset) fs.truncateSync(dest, offset);
  const stall = new AbortController();
  const signal = AbortSignal.any([opts.signal, stall.signal]);
  let res = await open(fetchImpl, endpoints, new URL(location.url), offset, signal);
  if (res.status === 416 && offset > 0) {
    // What we hold does not fit what the server has now: start over.
    await res.body?.cancel();
    offset = 0;
    res = await open(fetchImpl, endpoints, new URL(location.url), 0, signal);
  }
  if (res.status === 206 && rangeStart(res) !== offset) {
    await res.body?.cancel();
    throw new ProviderError('protocol', "iCloud's content service answered another range than asked for.", true);
  }
  if (res.status !== 200 && res.status !== 206) {
    await res.body?.cancel();
    throw statusError(res.status);
  }
  // A 200 answer to a Range request is the whole file: write it from the start.
  let written = res.status === 206 ? offset : 0;
  if (!res.body) throw new ProviderError('protocol', "iCloud's content service answered without a body.", true);
  const out = fs.createWriteStream(dest, { flags: written > 0 ? 'a' : 'w' });
  let writeError: unknown = null;
  out.on('error', (e) => (writeError ??= e));
  let timer = setTimeout(() => stall.abort(), STALL_MS);
  let failure: unknown = null;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(), STALL_MS);
      if (!out.write(chunk)) await once(out, 'drain');
      written += chunk.length;
      opts.onProgress?.(written);
    }
  } catch (e) {
    failure = e;
  } finally {
    clearTimeout(timer);
    // What did arrive is flushed to disk, so the next attempt resumes after it instead of starting over.
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
  if (writeError) throw writeError;
  if (failure) {
    if (opts.signal.aborted) throw opts.signal.reason;
    throw new ProviderError('unreachable', stall.signal.aborted ? "iCloud's content service stopped sending." : 'The download from iCloud was cut off.', true);
  }
  const size = fs.statSync(dest).size;
  if (location.size !== null && size !== location.size) {
    // A retry must not append to bytes that do not belong to this file.
    fs.truncateSync(dest, 0);
    throw new ProviderError('protocol', `The downloaded file has ${size} bytes where iCloud listed ${location.size}.`, true);
  }
}

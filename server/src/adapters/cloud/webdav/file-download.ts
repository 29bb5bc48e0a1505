/**
 * One file to disk: streamed (never held whole in memory), resumed with a Range request when bytes are already
 * there, fsynced before it counts as done, and checked against the size the listing gave. A transfer that
 * breaks leaves the bytes it got in `dest`: the caller resumes from the file's size.
 */
import fs from 'node:fs/promises';
import type http from 'node:http';
import { ProviderError, type DownloadOptions, type RemoteItem } from '../provider.ts';
import { asProviderError, statusError, type DavClient } from './dav-client.ts';

/** `size:mtime` versions are ours, not the server's: they cannot be sent back as an If-Range validator. */
function ifRangeOf(version: string): string | null {
  return /^\d*:\d*$/.test(version) ? null : `"${version}"`;
}

async function sizeOnDisk(dest: string): Promise<number> {
  try {
    return (await fs.stat(dest)).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
}

/** The first byte of a 206's Content-Range, or null when the header is not `bytes a-b/n`. */
function rangeStart(response: http.IncomingMessage): number | null {
  const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers['content-range'] ?? '');
  return m ? Number(m[1]) : null;
}

async function syncFile(dest: string): Promise<void> {
  const handle = await fs.open(dest, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function downloadFile(client: DavClient, url: URL, item: RemoteItem, dest: string, opts: DownloadOptions): Promise<void> {
  const { signal } = opts;
  signal.throwIfAborted();
  // Resume from what is really on disk: never past it (a gap), never keeping bytes beyond `offset`.
  const onDisk = opts.offset > 0 ? await sizeOnDisk(dest) : 0;
  const offset = Math.min(opts.offset, onDisk);
  if (offset > 0 && onDisk > offset) await fs.truncate(dest, offset);
  const headers: Record<string, string> = {};
  if (offset > 0) {
    headers.range = `bytes=${offset}-`;
    const validator = ifRangeOf(item.version);
    // Without a validator a changed file would be spliced onto the old bytes; 200 (whole file) is safer then.
    if (validator) headers['if-range'] = validator;
    else delete headers.range;
  }
  const { response } = await client.request({ method: 'GET', url, headers, signal });
  const status = response.statusCode ?? 0;
  let start: number;
  if (status === 206 && headers.range) {
    start = rangeStart(response) ?? -1;
    if (start !== offset) {
      response.destroy();
      throw new ProviderError('protocol', `The server resumed "${item.id}" at another byte than asked.`);
    }
  } else if (status === 200) {
    start = 0;
  } else if (status === 416 && offset > 0) {
    response.resume();
    if (item.size !== null && offset === item.size) return syncFile(dest);
    // The remote file is shorter than what is here: it changed, fetch it whole.
    return downloadFile(client, url, item, dest, { ...opts, offset: 0 });
  } else {
    response.resume();
    // One file this account may not read is that file's failure, not the credential's: the run goes on.
    if (status === 403) throw new ProviderError('not_found', `The server does not let this account read "${item.id}" (HTTP 403).`, false, { status: '403' });
    throw statusError(status, `"${item.id}"`, 'session_expired');
  }
  const handle = await fs.open(dest, start === 0 ? 'w' : 'a');
  let total = start;
  // A failing disk is this machine's problem, not the server's: it is thrown as it is, not as `unreachable`.
  let writeError: unknown = null;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      try {
        await handle.write(chunk);
      } catch (e) {
        writeError = e;
        break;
      }
      total += chunk.length;
      opts.onProgress?.(total);
    }
  } catch (e) {
    response.destroy();
    await handle.close();
    throw asProviderError(e, signal, url);
  }
  try {
    if (!writeError) await handle.sync();
  } finally {
    await handle.close();
  }
  if (writeError) throw writeError;
  if (item.size !== null && total !== item.size) {
    throw new ProviderError(
      'protocol',
      `"${item.id}" has ${total} bytes on the server, not the ${item.size} it had when listed: it changed meanwhile and is fetched again on the next run.`,
    );
  }
}

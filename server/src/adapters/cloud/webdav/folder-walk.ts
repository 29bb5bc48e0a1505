/**
 * The listing: PROPFIND Depth 1 per folder (many servers refuse Depth infinity, and one answer for a whole
 * library would have to be held at once), a few folders in flight, files yielded as their folder answers.
 * A folder that cannot be read is a ListingProblem and the walk goes on; a refused password, an unreachable or
 * overloaded server ends it (every further folder would fail the same way).
 *
 * Hidden `.`-files are listed like any other: whether a file is something to import is the importer's call
 * (it reads the bytes), not the listing's.
 */
import { ProviderError, type ListingProblem, type RemoteItem } from '../provider.ts';
import type { DavClient } from './dav-client.ts';
import { statusError } from './dav-client.ts';
import { pathLabel, sortFolderEntries, type FolderContents } from './folder-entries.ts';
import { propfind } from './propfind.ts';
import { baseSegments, printable, urlOf } from './remote-paths.ts';

export interface WalkOptions {
  /** Folders read at once. */
  concurrency: number;
  /** Called for each item with the segments as the server spelled them (for downloads of NFD names). */
  onItemPath?: (id: string, segments: string[]) => void;
}

type FolderOutcome = { kind: 'read'; contents: FolderContents } | { kind: 'problem'; problem: ListingProblem };

async function readFolder(client: DavClient, scope: readonly string[], folder: string[], signal: AbortSignal): Promise<FolderOutcome> {
  const base = client.account.base;
  const at = folder.length ? printable(pathLabel(folder)) : '(the import folder)';
  const problem = (reason: string): FolderOutcome => ({ kind: 'problem', problem: { problem: true, where: at, reason } });
  let result;
  try {
    result = await propfind(client, urlOf(base, [...scope, ...folder], true), '1', signal);
  } catch (e) {
    // An answer that does not parse concerns this folder only; anything else (network, abort) ends the walk.
    if (e instanceof ProviderError && e.code === 'protocol' && folder.length > 0) return problem(e.message);
    throw e;
  }
  const status = result.status;
  if (!('entries' in result)) {
    if (status === 401) throw statusError(status, 'the folder', 'session_expired');
    if (status === 429 || status === 502 || status === 503 || status === 504) throw statusError(status, 'the folder');
    if (folder.length === 0 && (status === 404 || status === 410)) throw new ProviderError('not_found', 'The folder to import does not exist on the server (any more).');
    if (folder.length === 0 && status >= 200 && status < 300) throw new ProviderError('protocol', 'The server did not answer as a WebDAV server.');
    if (status === 403) return problem('the server does not let this account read the folder (HTTP 403)');
    if (status === 404 || status === 410) return problem('the folder disappeared while the listing ran');
    return problem(`the server could not list the folder (HTTP ${status})`);
  }
  return { kind: 'read', contents: sortFolderEntries(result.entries, base, [...baseSegments(base), ...scope], folder) };
}

export async function* walkFolders(
  client: DavClient,
  scope: readonly string[],
  signal: AbortSignal,
  opts: WalkOptions,
): AsyncGenerator<RemoteItem | ListingProblem> {
  // Ends the folders still in flight when the consumer stops early or one of them failed.
  const stop = new AbortController();
  const walkSignal = AbortSignal.any([signal, stop.signal]);
  const pending: string[][] = [[]];
  let nextPending = 0;
  const inFlight = new Map<number, Promise<{ key: number; outcome?: FolderOutcome; error?: unknown }>>();
  let nextKey = 0;
  try {
    while (nextPending < pending.length || inFlight.size > 0) {
      while (nextPending < pending.length && inFlight.size < opts.concurrency) {
        const key = nextKey++;
        const read = readFolder(client, scope, pending[nextPending++]!, walkSignal);
        inFlight.set(
          key,
          read.then(
            (outcome) => ({ key, outcome }),
            (error: unknown) => ({ key, error }),
          ),
        );
      }
      const done = await Promise.race(inFlight.values());
      inFlight.delete(done.key);
      if (!done.outcome) throw done.error;
      if (done.outcome.kind === 'problem') {
        yield done.outcome.problem;
        continue;
      }
      const { items, folders, problems } = done.outcome.contents;
      pending.push(...folders);
      yield* problems;
      for (const { item, segments } of items) {
        opts.onItemPath?.(item.id, segments);
        yield item;
      }
    }
  } finally {
    stop.abort();
  }
}

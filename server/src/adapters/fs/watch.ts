/**
 * Watches a folder tree for file changes (chokidar 6 over inotify / FSEvents / ReadDirectoryChangesW)
 * and reports them relative to the root. Writes are reported once the file size has stayed the same
 * for `stabilityMs` (awaitWriteFinish), so a file still being copied is not read half-written.
 *
 * Watchers miss events (an overflowing inotify queue, the watch limit, network shares): callers pair
 * this with periodic reconciling walks.
 */
import { watch, type FSWatcher } from 'chokidar';
import path from 'node:path';
import { toPosixRel } from './paths.ts';

export type TreeEventType = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

export interface TreeEvent {
  type: TreeEventType;
  /** Relative to the root, forward slashes; '' is the root itself. */
  rel: string;
}

export interface TreeWatcherOptions {
  /** True to ignore an entry (and, for a folder, everything in it). */
  ignore: (rel: string) => boolean;
  /** How long a file's size must stay unchanged before add/change is reported. */
  stabilityMs: number;
  onEvent: (event: TreeEvent) => void;
  onError: (error: Error) => void;
  /** Stat polling instead of native events (network shares). */
  polling?: boolean;
}

export interface TreeWatcher {
  /** Resolves when the initial listing is done and events are being delivered. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export function watchTree(root: string, opts: TreeWatcherOptions): TreeWatcher {
  const w: FSWatcher = watch(root, {
    ignoreInitial: true,
    persistent: false,
    followSymlinks: false,
    awaitWriteFinish: { stabilityThreshold: opts.stabilityMs, pollInterval: Math.max(20, Math.min(100, Math.round(opts.stabilityMs / 5))) },
    ...(opts.polling ? { backend: 'polling' as const } : {}),
    ignored: (p: string) => {
      const rel = toPosixRel(root, path.resolve(p));
      if (rel === '' || rel.startsWith('..')) return false; // the root and the folders above it
      return opts.ignore(rel);
    },
  });
  const ready = new Promise<void>((resolve) => w.once('ready', () => resolve()));
  for (const type of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
    w.on(type, (p: string) => {
      const rel = toPosixRel(root, path.resolve(p));
      if (rel.startsWith('..')) return;
      opts.onEvent({ type, rel });
    });
  }
  w.on('error', (e: unknown) => opts.onError(e instanceof Error ? e : new Error(String(e))));
  return {
    ready,
    close: () => w.close(),
  };
}

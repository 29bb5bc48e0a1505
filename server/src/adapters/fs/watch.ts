/**
 * Watches a folder tree for file changes (chokidar 6 over inotify / FSEvents / ReadDirectoryChangesW)
 * and reports them relative to the root.
 *
 * Writes are reported once the file's size and mtime have stayed the same for `stabilityMs`
 * (write-settled.ts), so a file still being copied is not read half-written. This is done here rather
 * than with chokidar's awaitWriteFinish for two reasons: chokidar does not wait for files that appear
 * before its initial listing is done (a folder registered while a copy into it runs), and callers
 * need to know that writes are in flight (`writesInFlight`): the first half of a move (the old
 * path's removal) must not be acted on while its second half (the new file) is still settling.
 * A folder that appears is held the same way (its mtime settles once its files are listed), so
 * the files of a renamed folder are counted as in flight from the moment the folder shows up.
 *
 * Watchers miss events (an overflowing inotify queue, the watch limit, network shares): callers pair
 * this with periodic reconciling walks.
 */
import { watch, type FSWatcher } from 'chokidar';
import path from 'node:path';
import { toPosixRel } from './paths.ts';
import { WriteSettler } from './write-settled.ts';

export type TreeEventType = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

export interface TreeEvent {
  type: TreeEventType;
  /** Relative to the root, forward slashes; '' is the root itself. */
  rel: string;
}

export interface TreeWatcherOptions {
  /** True to ignore an entry (and, for a folder, everything in it). */
  ignore: (rel: string) => boolean;
  /** How long a file's size and mtime must stay unchanged before add/change is reported. */
  stabilityMs: number;
  onEvent: (event: TreeEvent) => void;
  onError: (error: Error) => void;
  /** Stat polling instead of native events (network shares). */
  polling?: boolean;
  /**
   * A file that appeared (`add`) which the caller wrote itself and deals with already: neither held nor reported.
   * Asked once per `add`; a `change` is always reported.
   */
  ownWrite?: (rel: string) => boolean;
}

export interface TreeWatcher {
  /** Resolves when the initial listing is done and events are being delivered (or the watcher is closed). */
  readonly ready: Promise<void>;
  /** Files (and new folders) seen changing that have not settled yet, so not reported yet. */
  readonly writesInFlight: number;
  close(): Promise<void>;
}

/** Keys of held folders, apart from files of the same name. */
const DIR_KEY = '\0dir:';

export function watchTree(root: string, opts: TreeWatcherOptions): TreeWatcher {
  const abs = (rel: string) => path.join(root, ...rel.split('/'));
  const settler = new WriteSettler({
    quietMs: opts.stabilityMs,
    resolve: (key) => abs(key.startsWith(DIR_KEY) ? key.slice(DIR_KEY.length) : key),
    settled: (type, key) => {
      if (!key.startsWith(DIR_KEY)) opts.onEvent({ type: type as TreeEventType, rel: key });
    },
  });
  const w: FSWatcher = watch(root, {
    ignoreInitial: true,
    persistent: false,
    followSymlinks: false,
    ...(opts.polling ? { backend: 'polling' as const } : {}),
    ignored: (p: string) => {
      const rel = toPosixRel(root, path.resolve(p));
      if (rel === '' || rel.startsWith('..')) return false; // the root and the folders above it
      return opts.ignore(rel);
    },
  });
  let closedBeforeReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    w.once('ready', () => resolve());
    closedBeforeReady = resolve; // nobody waits for a watcher that was closed before it was ready
  });
  for (const type of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
    w.on(type, (p: string) => {
      const rel = toPosixRel(root, path.resolve(p));
      if (rel.startsWith('..')) return;
      switch (type) {
        case 'add':
          if (rel !== '' && opts.ownWrite?.(rel)) return;
          if (rel !== '') return settler.touch(type, rel);
          break;
        case 'change':
          if (rel !== '') return settler.touch(type, rel);
          break;
        case 'unlink':
          settler.drop(rel);
          break;
        case 'addDir':
          if (rel !== '') settler.touch('addDir', DIR_KEY + rel);
          break;
        case 'unlinkDir':
          settler.drop(DIR_KEY + rel);
          break;
      }
      opts.onEvent({ type, rel });
    });
  }
  w.on('error', (e: unknown) => opts.onError(e instanceof Error ? e : new Error(String(e))));
  return {
    ready,
    get writesInFlight() {
      return settler.inFlight;
    },
    close: async () => {
      closedBeforeReady();
      settler.close();
      await w.close();
    },
  };
}

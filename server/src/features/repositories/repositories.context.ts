/**
 * What the parts of the repositories service share: the catalog, its store, the options, and whether
 * the service is running (registration, watching, scheduling and scanning all act only while it is).
 */
import type { SettingsStore } from '../../config/settings.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { CatalogDoor } from '../intake/index.ts';
import type { RepositoriesStore } from './repositories.store.ts';

export interface RepositoriesDeps {
  jobs: JobQueue;
  settings: Pick<SettingsStore, 'section'>;
  /** The one door into the catalog (features/intake/door.ts), built before this service. */
  door: CatalogDoor;
  /** The data folder: no repository may be registered inside it (outside the storage root). */
  dataDir?: string;
}

export interface RepositoriesOptions {
  /** Watch active repositories (default true). */
  watch?: boolean;
  /** A file must stop changing for this long before it is indexed (default 1000 ms). */
  stabilityMs?: number;
  /** Removals wait this long, so that a move's unlink and add are seen together (default 2000 ms). */
  unlinkGraceMs?: number;
  /** Scheduler tick: reachability checks and due periodic scans (default 15 s). */
  tickMs?: number;
  /** Stat polling instead of native file events. */
  polling?: boolean;
}

export interface RepositoriesContext {
  readonly db: Db;
  readonly store: RepositoriesStore;
  readonly storageRoot: string;
  readonly log: Logger;
  /** Absent in tools that only read the catalog of repositories: then nothing is watched or scanned. */
  readonly deps: RepositoriesDeps | undefined;
  readonly opts: Required<RepositoriesOptions>;
  readonly now: () => number;
  /** Set by start(), cleared by stop(). */
  started: boolean;
}

export function withDefaults(options: RepositoriesOptions): Required<RepositoriesOptions> {
  return {
    watch: options.watch ?? true,
    stabilityMs: options.stabilityMs ?? 1000,
    unlinkGraceMs: options.unlinkGraceMs ?? 2000,
    tickMs: options.tickMs ?? 15_000,
    polling: options.polling ?? false,
  };
}

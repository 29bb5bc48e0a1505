/** Shared test tools for the job queue: a migrated catalog in a temp file, a fake clock, helpers. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../../server/src/platform/db/connection.ts';
import { migrate } from '../../../server/src/platform/db/migrate.ts';
import { createLogger } from '../../../server/src/platform/logger.ts';
import { JobQueue } from '../../../server/src/platform/jobs/queue.ts';
import { JobRegistry, type AnyJobDefinition, type QueueConfig } from '../../../server/src/platform/jobs/registry.ts';
import { JobRunner, type JobRunnerOptions } from '../../../server/src/platform/jobs/runner.ts';

export const silent = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

export interface TempCatalog {
  db: Db;
  file: string;
  dir: string;
  cleanup(): void;
}

export function tempCatalog(): TempCatalog {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-jobs-'));
  const file = path.join(dir, 'catalog.sqlite3');
  const db = openDatabase(file);
  migrate(db);
  return {
    db,
    file,
    dir,
    cleanup() {
      if (db.open) db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A clock that only moves when told to. */
export function fakeClock(start = Date.UTC(2030, 0, 1)) {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
    set(ms: number) {
      t = ms;
    },
  };
}

export interface Harness extends TempCatalog {
  registry: JobRegistry;
  queue: JobQueue;
  clock: ReturnType<typeof fakeClock>;
  runner(opts?: Partial<JobRunnerOptions>): JobRunner;
}

/** Catalog + registry + queue on a fake clock; runners default to a fixed backoff spread (random 0.5). */
export function harness(defs: AnyJobDefinition[], queues: Record<string, QueueConfig> = {}): Harness {
  const cat = tempCatalog();
  const clock = fakeClock();
  const registry = new JobRegistry(queues).register(...defs);
  const queue = new JobQueue(cat.db, registry, clock.now);
  const runners: JobRunner[] = [];
  return {
    ...cat,
    registry,
    queue,
    clock,
    runner(opts = {}) {
      const r = new JobRunner({ db: cat.db, queue, log: silent, random: () => 0.5, pollIntervalMs: 60_000, abortGraceMs: 200, ...opts });
      runners.push(r);
      return r;
    },
    cleanup() {
      for (const r of runners) void r.stop(0);
      cat.cleanup();
    },
  };
}

export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Waits until the condition holds (checked every few ms), or fails after `ms`. */
export async function until(cond: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

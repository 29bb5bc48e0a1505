/**
 * WAL checkpoints off the event loop (issue 25 point 4).
 *
 * By default SQLite checkpoints inside the COMMIT that takes the WAL past 1000 pages: that commit copies the
 * WAL's pages into the catalog file and syncs it, on the connection that committed, which is the server's
 * only writer and runs on the event loop. A people rebuild's write transactions took 45–58 ms to commit that
 * way. So the main connection never checkpoints (`wal_autocheckpoint = 0`) and this checkpointer does it on
 * a worker thread with a connection of its own:
 *
 *   - every `everyMs` the main thread stats the WAL file (fs.promises: no wait on the loop); when it was written
 *     since the last look, the worker runs `PRAGMA wal_checkpoint(PASSIVE)`. PASSIVE takes no lock a writer
 *     needs: the server's writes go on meanwhile. The WAL therefore holds at most about `everyMs` of writes
 *     (plus frames a long read still sees; SQLite reuses the file from its start once all are checkpointed),
 *     so it stays bounded as it did with auto-checkpoints.
 *   - when nothing was written for `idleMs`, the worker runs `wal_checkpoint(TRUNCATE)` (the WAL back to 0 bytes:
 *     the disk space comes back) and is stopped, giving its memory back; the next write starts it again.
 *     TRUNCATE needs the write lock and readers gone: its connection waits for nothing (busy_timeout 0), so
 *     it never holds the write lock while waiting, and a busy answer is simply tried again at the next look.
 *
 * The worker is plain JavaScript evaluated without the TypeScript loader (as platform/cache/snapshot-worker.ts).
 * If it fails (it cannot open the file, it dies), the main connection goes back to SQLite's own
 * auto-checkpoints (1000 pages), so the WAL stays bounded at the cost of slower commits, and `onFailure` is told.
 * `close()` stops the looks and the worker before the main connection closes (the last connection to close
 * checkpoints and removes the WAL itself). A catalog in memory has no WAL: `start` returns null.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './connection.ts';

/** SQLite's default auto-checkpoint bound, which the main connection returns to when the worker fails. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
parentPort.on('message', ({ id, mode }) => {
  if (mode === 'STOP') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [r] = db.pragma('wal_checkpoint(' + mode + ')');
    parentPort.postMessage({ id, busy: r.busy, log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});
`;

type Mode = 'PASSIVE' | 'TRUNCATE';

/** One checkpoint's answer: `busy` 1 when it could not finish (a reader or writer in the way); frames in the WAL and checkpointed. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

interface Reply extends Partial<CheckpointResult> {
  id: number;
  error?: string;
}

export interface CheckpointerOptions {
  /** How often the WAL is looked at (ms). */
  everyMs?: number;
  /** Quiet time after the last write before the WAL is truncated and the worker stopped (ms). */
  idleMs?: number;
  /** Told when the worker failed and the main connection went back to auto-checkpoints. */
  onFailure?: (e: Error) => void;
}

export class WalCheckpointer {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();
  private next = 0;
  private readonly timer: NodeJS.Timeout;
  private looking = false;
  private seen = '';
  private lastChange = Date.now();
  private stopped = false;
  /** Set once the worker failed: the main connection auto-checkpoints again. */
  failure: Error | null = null;
  /** Checkpoints run, by mode (what tests and benches read). */
  readonly runs = { PASSIVE: 0, TRUNCATE: 0 };

  private constructor(
    private readonly db: Db,
    private readonly opts: CheckpointerOptions,
  ) {
    db.pragma('wal_autocheckpoint = 0');
    this.timer = setInterval(() => void this.look(), opts.everyMs ?? 500);
    this.timer.unref();
  }

  /** A checkpointer for the catalog `db` is connected to (turning its auto-checkpoints off); null for a catalog in memory. */
  static start(db: Db, opts: CheckpointerOptions = {}): WalCheckpointer | null {
    return db.memory || db.name === '' ? null : new WalCheckpointer(db, opts);
  }

  /** Whether the worker thread is running now. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Stops the looks and the worker (its connection closed first). */
  async close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref(); // the process waits for the connection's close, as it waits for the main one's
    worker.postMessage({ mode: 'STOP' });
    await exited;
  }

  /** Runs one checkpoint on the worker now (starting it if needed). */
  checkpoint(mode: Mode): Promise<CheckpointResult> {
    const worker = this.start();
    const id = ++this.next;
    return new Promise<CheckpointResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, mode });
    }).then((r) => {
      this.runs[mode]++;
      return r;
    });
  }

  private async look(): Promise<void> {
    if (this.looking || this.stopped || this.failure || !this.db.open) return;
    this.looking = true;
    try {
      const stamp = await this.walStamp();
      if (this.stopped || this.failure) return;
      if (stamp.key !== this.seen) {
        this.seen = stamp.key;
        this.lastChange = Date.now();
        await this.checkpoint('PASSIVE');
      } else if (stamp.size > 0n && Date.now() - this.lastChange >= (this.opts.idleMs ?? 5000)) {
        const r = await this.checkpoint('TRUNCATE');
        if (r.busy) return; // a reader or a write in the way: tried again at the next look
        this.seen = (await this.walStamp()).key;
        this.stopWorker();
      }
    } catch {
      // A failed checkpoint (an I/O error, the worker gone) is handled where the worker reports it.
    } finally {
      this.looking = false;
    }
  }

  private async walStamp(): Promise<{ key: string; size: bigint }> {
    const st = await fs.promises.stat(`${this.db.name}-wal`, { bigint: true }).catch(() => null);
    return st ? { key: `${st.mtimeNs}:${st.size}`, size: st.size } : { key: 'none', size: 0n };
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    if (this.failure) throw this.failure;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    // No execArgv: the loader of the server's own TypeScript is not needed by this plain script.
    const worker = new Worker(WORKER, {
      eval: true,
      execArgv: [],
      workerData: { driver, file: this.db.name },
    });
    worker.unref();
    worker.on('message', (m: Reply) => this.settle(m));
    worker.on('error', (e) => this.fail(worker, e));
    worker.on('exit', (code) => this.fail(worker, new Error(`the WAL checkpointer thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** The worker's deliberate stop (after an idle TRUNCATE): its exit is not a failure. */
  private stopWorker(): void {
    const worker = this.worker;
    this.worker = null;
    worker?.postMessage({ mode: 'STOP' });
  }

  private fail(worker: Worker, e: Error): void {
    for (const [, w] of this.waiting) w.reject(e);
    this.waiting.clear();
    if (this.worker !== worker) return; // a worker stopped on purpose
    this.worker = null;
    if (this.stopped || this.failure) return;
    this.failure = e;
    clearInterval(this.timer);
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    this.opts.onFailure?.(e);
  }

  private settle(m: Reply): void {
    const w = this.waiting.get(m.id);
    if (!w) return;
    this.waiting.delete(m.id);
    if (m.error !== undefined) w.reject(new Error(`WAL checkpoint failed: ${m.error}`));
    else w.resolve({ busy: m.busy!, log: m.log!, checkpointed: m.checkpointed! });
  }
}

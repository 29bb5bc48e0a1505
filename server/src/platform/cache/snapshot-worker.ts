/**
 * Reads a column of integers (rowids) from the catalog on a worker thread, in one snapshot whose
 * change-journal position comes with the result: for the long reads that cannot be cut into
 * bounded slices, such as a list whose query sorts everything it found before its first row (an
 * album, a tag, a camera: SQLite does the whole search and sort in the first step). On the main
 * thread such a read held the event loop for as long as it took (hundreds of ms to seconds at 1M);
 * here the loop only receives the finished Int32Array (transferred, not copied). The caller brings
 * the result up to date from the position (changed-keys.ts), like any value read in another snapshot.
 *
 * The worker is plain JavaScript evaluated without the TypeScript loader the server may run under
 * (starting one with it cost 0.6 s of CPU, features/intake/file-hasher.ts): it opens its own
 * connection to the catalog file (query_only) and answers one read at a time. It is started on
 * the first read, stopped after 20 s without one (never keeps the process alive), and started
 * again when it died. A catalog in memory has no file to open: `for` returns null.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from '../db/connection.ts';
import { JOURNAL_POSITION } from './snapshot-reader.ts';

/** Long enough to serve a person paging through a list; short enough to be gone well within a minute of the last read (issue 25). */
const IDLE_MS = 20_000;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('query_only = 1');
const position = db.prepare(workerData.position).pluck();
parentPort.on('message', ({ id, sql, params }) => {
  try {
    let seq;
    let out = new Int32Array(4096);
    let n = 0;
    db.exec('BEGIN');
    try {
      seq = position.get();
      for (const v of db.prepare(sql).pluck().iterate(params)) {
        if (n === out.length) {
          const grown = new Int32Array(out.length * 2);
          grown.set(out);
          out = grown;
        }
        out[n++] = v;
      }
    } finally {
      db.exec('COMMIT');
    }
    const values = out.slice(0, n);
    parentPort.postMessage({ id, seq, values }, [values.buffer]);
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});
`;

interface Reply {
  id: number;
  seq?: number;
  values?: Int32Array;
  error?: string;
}

export interface SnapshotColumn {
  /** The journal position of the snapshot the values were read in. */
  seq: number;
  values: Int32Array;
}

export class SnapshotWorker {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, { resolve: (r: SnapshotColumn) => void; reject: (e: Error) => void }>();
  private next = 0;
  private idle: NodeJS.Timeout | null = null;

  private constructor(private readonly file: string) {}

  /** A worker reading the catalog `db` is connected to; null for a catalog in memory. */
  static for(db: Db): SnapshotWorker | null {
    return db.memory || db.name === '' ? null : new SnapshotWorker(db.name);
  }

  /** The integers of the first column of `sql` (with named `params`), in order, with the snapshot's journal position. */
  column(sql: string, params: Record<string, unknown>): Promise<SnapshotColumn> {
    const worker = this.start();
    const id = ++this.next;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    return new Promise<SnapshotColumn>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, sql, params });
    });
  }

  /** Whether the worker thread is running (it stops after IDLE_MS without a read). */
  get running(): boolean {
    return this.worker !== null;
  }

  close(): void {
    if (this.idle) clearTimeout(this.idle);
    void this.worker?.terminate();
    this.worker = null;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    // No execArgv: the loader of the server's own TypeScript is not needed by this plain script.
    const worker = new Worker(WORKER, { eval: true, execArgv: [], workerData: { driver, file: this.file, position: JOURNAL_POSITION } });
    worker.unref();
    worker.on('message', (m: Reply) => this.settle(m));
    const fail = (e: Error) => {
      // A worker stopped for idleness ends after close() returned: if a read has started its successor
      // meanwhile, the reads waiting now are the successor's, and this late exit is none of theirs.
      if (this.worker !== worker && this.worker !== null) return;
      this.worker = null;
      for (const [, w] of this.waiting) w.reject(e);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('the snapshot worker stopped')));
    this.worker = worker;
    return worker;
  }

  private settle(m: Reply): void {
    const w = this.waiting.get(m.id);
    if (!w) return;
    this.waiting.delete(m.id);
    if (m.error !== undefined) w.reject(new Error(`snapshot read failed: ${m.error}`));
    else w.resolve({ seq: m.seq!, values: m.values! });
    if (this.waiting.size === 0 && this.worker) {
      const worker = this.worker;
      this.idle = setTimeout(() => {
        if (this.worker === worker && this.waiting.size === 0) this.close();
      }, IDLE_MS);
      this.idle.unref();
    }
  }
}

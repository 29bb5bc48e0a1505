/**
 * A second connection to the catalog file for long reads that must come from one snapshot but may
 * not hold the event loop: the reader opens a read transaction, and its caller reads a slice per
 * turn of the event loop (several statements, each bounded by a key range) until done. Every
 * slice sees the same snapshot, and the change-journal position read first in that transaction
 * is exactly the position the whole result is at, so a cache brings it up to date from there with
 * the changed keys (changed-keys.ts) like any kept value.
 *
 * Why a second connection: the server's own connection answers requests between the slices, and a
 * read transaction held open on it across turns would make every request's write wait or fail.
 * In WAL mode this reader never blocks writers; it only keeps the WAL from being checkpointed past
 * its snapshot while it reads (seconds at most).
 *
 * One read at a time (a connection has one transaction): reads queue. A catalog in memory (tests of
 * stores) has no second connection: `for` returns null and callers read on the main connection.
 */
import Database from 'better-sqlite3';
import type { Db } from '../db/connection.ts';

/** The newest change-journal position, as a read transaction sees it. */
export const JOURNAL_POSITION = 'SELECT coalesce(max(seq), 0) FROM change_journal';

export class SnapshotReader {
  private conn: Db | null = null;
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly file: string) {}

  /** A reader of the catalog `db` is connected to; null for a catalog in memory. */
  static for(db: Db): SnapshotReader | null {
    return db.memory || db.name === '' ? null : new SnapshotReader(db.name);
  }

  /**
   * Runs `work` inside one read transaction of the reader connection (after the reads queued
   * before it). `work` gets the connection and the journal position of the snapshot.
   */
  read<T>(work: (conn: Db, position: number) => Promise<T>): Promise<T> {
    const run = this.tail.then(async () => {
      const conn = this.open();
      conn.exec('BEGIN');
      try {
        // The first read starts the snapshot: the position and everything read after it agree.
        return await work(conn, conn.prepare(JOURNAL_POSITION).pluck().get() as number);
      } finally {
        conn.exec('COMMIT');
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  close(): void {
    this.conn?.close();
    this.conn = null;
  }

  private open(): Db {
    if (!this.conn) {
      const conn = new Database(this.file, { fileMustExist: true });
      conn.pragma('busy_timeout = 5000');
      // Reads only: a bug here can never write to the catalog.
      conn.pragma('query_only = 1');
      this.conn = conn;
    }
    return this.conn;
  }
}

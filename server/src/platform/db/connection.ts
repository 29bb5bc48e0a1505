/**
 * The SQLite catalog: one better-sqlite3 connection (the single writer), WAL, sqlite-vec loaded.
 * Pragmas are read back after setting them so that a file system that silently refuses WAL (some
 * network shares do) stops the start instead of corrupting the catalog later.
 */
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

export type Db = Database.Database;

export function openDatabase(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  sqliteVec.load(db);

  const journal = db.pragma('journal_mode', { simple: true });
  const fk = db.pragma('foreign_keys', { simple: true });
  if (file !== ':memory:' && journal !== 'wal') {
    db.close();
    throw new Error(`SQLite refused WAL mode for ${file} (got ${String(journal)}); put the data folder on a local disk`);
  }
  if (fk !== 1) {
    db.close();
    throw new Error('SQLite refused foreign_keys=ON');
  }
  return db;
}

/** Runs fn in an IMMEDIATE transaction (takes the write lock up front: no upgrade deadlocks). */
export function tx<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}

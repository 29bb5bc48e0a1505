/**
 * The SQLite catalog: one better-sqlite3 connection (the single writer), WAL, sqlite-vec loaded.
 * Pragmas are read back after setting them so that a file system that silently refuses WAL (some
 * network shares do) stops the start instead of corrupting the catalog later.
 */
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

export type Db = Database.Database;

/** How much of the catalog file is read through a memory map (SQLite caps it at its build's maximum, 2 GB here). */
const MMAP_BYTES = 2 ** 31;

export function openDatabase(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  // Reads through a memory map instead of read() into SQLite's own 2 MB page cache: the search's channels and the
  // vector index's exact re-rank read hundreds of scattered pages per request (OCR lines, asset rows, 2 KB vectors),
  // which the page cache cannot hold at 100k photos; mapped, a page the OS already caches costs no system call and
  // no copy (hybrid searchAssets at 100k: see scripts/bench/search/hybrid-http.ts). Writes still go through the WAL.
  // The map is address space, not memory: the pages are the OS's file cache, shared and reclaimable.
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
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

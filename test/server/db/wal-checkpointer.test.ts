/**
 * WAL checkpoints off the event loop (platform/db/checkpointer.ts, issue 25 point 4): the server's connection
 * never checkpoints inside a commit (wal_autocheckpoint 0), yet its WAL is checkpointed by the background
 * thread, stays bounded under many writes and goes back to 0 bytes when the catalog is quiet; a dead
 * checkpointer hands checkpoints back to the commits; shutdown stops the thread, and servers opened and closed
 * one after another leave no thread behind.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase, type Db } from '../../../server/src/platform/db/connection.ts';
import { WalCheckpointer } from '../../../server/src/platform/db/checkpointer.ts';
import { startServer, tempDataDir } from '../helpers/server.ts';

async function waitFor(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const walBytes = (db: Db) => {
  try {
    return fs.statSync(`${db.name}-wal`).size;
  } catch {
    return 0;
  }
};

/** One write transaction of `bytes` (in 4 KB rows) into a scratch table. */
function write(db: Db, bytes: number): void {
  db.exec('CREATE TABLE IF NOT EXISTS scratch (b BLOB)');
  const ins = db.prepare('INSERT INTO scratch (b) VALUES (?)');
  const row = Buffer.alloc(4096, 7);
  db.transaction(() => {
    for (let n = 0; n < bytes; n += row.length) ins.run(row);
  })();
}

const threads = () => Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]);

describe('WAL checkpointer', () => {
  test("a running server's commits do not checkpoint; its WAL is still checkpointed, and shutdown stops the thread", async () => {
    const server = await startServer();
    try {
      const c = server.container;
      assert.equal(c.db.pragma('wal_autocheckpoint', { simple: true }), 0, 'the main connection checkpoints in no commit');
      assert.ok(c.checkpointer, 'a catalog file gets a checkpointer');
      write(c.db, 2 << 20);
      await waitFor('a background checkpoint', () => c.checkpointer!.runs.PASSIVE > 0);
      assert.ok(c.checkpointer.running, 'the thread runs while the catalog is written');
    } finally {
      await server.stop({ removeData: true });
    }
    assert.equal(server.container.checkpointer!.running, false, 'shutdown stopped the thread');
  });

  test('many writes keep the WAL bounded; a quiet catalog gets its WAL truncated and the thread stopped', async () => {
    const dir = tempDataDir();
    const db = openDatabase(path.join(dir, 'catalog.sqlite3'));
    const cp = WalCheckpointer.start(db, { everyMs: 20, idleMs: 300 })!;
    try {
      let largest = 0;
      // 24 MB written in 24 commits; with auto-checkpoints off and no checkpointer the WAL would hold all of it.
      for (let i = 0; i < 24; i++) {
        const before = cp.runs.PASSIVE;
        write(db, 1 << 20);
        largest = Math.max(largest, walBytes(db));
        await waitFor('a checkpoint after a write', () => cp.runs.PASSIVE > before);
      }
      assert.ok(largest < 4 << 20, `the WAL stayed bounded (largest ${largest} bytes after 24 MB of writes)`);
      await waitFor('the WAL truncated while quiet', () => walBytes(db) === 0 && cp.runs.TRUNCATE > 0);
      await waitFor('the thread stopped while quiet', () => !cp.running);
      assert.equal(db.prepare('SELECT count(*) FROM scratch').pluck().get(), 24 * 256, 'every row is in the catalog');
      // The next write starts it again.
      write(db, 1 << 20);
      await waitFor('the thread back for a new write', () => cp.running || cp.runs.PASSIVE > 24);
    } finally {
      await cp.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a checkpointer thread that dies hands checkpoints back to the commits', async () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'catalog.sqlite3');
    const db = openDatabase(file);
    write(db, 4096);
    // The catalog file moved away under the running server: its open connection still works, but the
    // checkpointer's thread cannot open the file and dies at its start.
    fs.renameSync(file, `${file}.moved`);
    const failures: Error[] = [];
    const cp = WalCheckpointer.start(db, { everyMs: 20, onFailure: (e) => failures.push(e) })!;
    try {
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
      write(db, 1 << 20);
      await waitFor('the failure reported', () => failures.length > 0);
      assert.ok(cp.failure);
      assert.equal(cp.running, false);
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 1000, "SQLite's own auto-checkpoints are back");
      // The commits checkpoint again: the WAL stays bounded without the thread.
      for (let i = 0; i < 12; i++) write(db, 1 << 20);
      assert.ok(walBytes(db) < 6 << 20, `the WAL stayed bounded (${walBytes(db)} bytes after 13 MB of writes)`);
    } finally {
      await cp.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('servers opened and closed one after another leave no checkpointer thread behind', async () => {
    const cycle = async () => {
      const server = await startServer();
      write(server.container.db, 1 << 20);
      await waitFor('the thread running', () => server.container.checkpointer!.running);
      await server.stop({ removeData: true });
    };
    await cycle(); // the first start creates the process's lasting threads (libuv's pool, V8's)
    const before = threads();
    for (let i = 0; i < 3; i++) await cycle();
    await waitFor(`threads back to ${before} (now ${threads()})`, () => threads() <= before, 5000);
  });
});

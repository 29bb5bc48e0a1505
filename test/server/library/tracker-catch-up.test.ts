/**
 * The catalog tracker catches up with a busy writer a small chunk per turn of the event loop (issue 25 point 4):
 * a people rebuild writes a few thousand faces per step, each a journal entry, and the next request applied them
 * all, 4096 per turn and as many again inside the request, next to the rebuild's own step in the same turn of
 * the loop (a 65 ms stall at 100k faces on 2 cores). At most CHUNK_MOST entries are applied between two turns,
 * by `ready()` and by the `current()` a request calls after it; the state is the same as applied in one go.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { CatalogTracker } from '../../../server/src/features/browse/catalog-tracker.ts';
import { catalogOf } from '../helpers/factories.ts';
import { tempCatalog } from '../jobs/harness.ts';

const CHUNK_MOST = 1024;

describe('the catalog tracker behind a busy writer', () => {
  const cat = tempCatalog();
  after(() => cat.cleanup());

  test(`applies at most ${CHUNK_MOST} journal entries between two turns of the event loop, and ends where one read in one go ends`, async () => {
    const db = cat.db;
    const make = catalogOf(db);
    const owner = Number(db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES ('m', 'm', 'x', 'user', 0, 0)").run().lastInsertRowid);
    const repo = make.repository({ name: 'synthetic', path: '/nonexistent', status: 'offline' });
    const ids = Array.from({ length: 50 }, (_, i) => make.asset({ owner_id: owner, repository_id: repo, original_filename: `p${i}.jpg`, storage_path: `p${i}.jpg` }));
    const tracker = new CatalogTracker(db);
    await tracker.ready();
    db.transaction(() => tracker.current())();
    const start = tracker.counters().position!;

    // 5000 changes, as a rebuild's steps write them: a face moved to another person is an asset change.
    const note = db.prepare("INSERT INTO change_journal (kind, key, deps) VALUES ('a', ?, 131072)");
    db.transaction(() => {
      for (let i = 0; i < 5000; i++) note.run(ids[i % ids.length]);
    })();

    // Positions seen at every turn of the loop while `ready()` runs: none moves by more than CHUNK_MOST.
    const seen = [start];
    let ticking = true;
    const tick = () => {
      seen.push(tracker.counters().position!);
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await tracker.ready();
    const before = tracker.counters().position!;
    db.transaction(() => tracker.current())();
    ticking = false;
    const end = tracker.counters().position!;
    seen.push(end);
    assert.equal(end, start + 5000, 'every change applied');
    assert.ok(end - before <= CHUNK_MOST, `the request itself applied ${end - before} entries`);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! - seen[i - 1]! <= CHUNK_MOST, `${seen[i]! - seen[i - 1]!} entries applied in one turn`);
    assert.ok(tracker.counters().chunks >= Math.ceil((5000 - CHUNK_MOST) / CHUNK_MOST), `chunks: ${tracker.counters().chunks}`);
    assert.equal(tracker.counters().blocking_rebuilds, 0);
  });
});

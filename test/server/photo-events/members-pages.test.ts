/**
 * The events rebuild reads the owner's event members a page at a time (photo-events.store.ts membersOfInSlices).
 * Each page must cost its own rows, not the whole set: the page query walks the members' (event, position)
 * index from the keyset, with no temporary B-tree (before round three every page read all the owner's members
 * and sorted them, the rebuild's 100+ ms step at 100k members). Structure, not timing: the query plan, and the
 * pages together giving exactly the owner's active members in order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PhotoEventsStore, MEMBERS_PAGE_SQL } from '../../../server/src/features/photo-events/photo-events.store.ts';
import { openDatabase } from '../../../server/src/platform/db/connection.ts';
import { migrate } from '../../../server/src/platform/db/migrate.ts';

test("an events rebuild's member pages walk the index from the keyset and give exactly the owner's active members", async () => {
  const db = openDatabase(':memory:');
  migrate(db, {});
  // Members and events only: the users and media items they point at do not matter to the read.
  db.pragma('foreign_keys = OFF');
  const ev = db.prepare(
    `INSERT INTO photo_events (event_id, owner_id, status, algorithm_version, start_at, end_at, generated_title, created_at, updated_at)
     VALUES (?, ?, ?, 'events-v1', 0, 0, 't', 0, 0)`,
  );
  const mem = db.prepare("INSERT INTO photo_event_members (event_id, media_item_id, position, origin) VALUES (?, ?, ?, 'segment')");
  let item = 0;
  db.transaction(() => {
    for (let e = 0; e < 60; e++) {
      const id = `e-${String(e).padStart(3, '0')}`;
      // Owners interleave by event id; every fifth of owner 1's events is retired (not read).
      const owner = e % 3 === 0 ? 2 : 1;
      ev.run(id, owner, e % 5 === 0 ? 'retired' : 'active');
      for (let p = 0; p < 1 + (e % 9); p++) mem.run(id, `item-${String(item++).padStart(5, '0')}`, p);
    }
  })();

  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${MEMBERS_PAGE_SQL}`).all({ owner: 1, event: '', position: -1, limit: 7 }) as { detail: string }[]).map((r) => r.detail);
  assert.ok(!plan.some((d) => /TEMP B-TREE/.test(d)), `no sort of the whole set per page: ${plan.join(' / ')}`);
  assert.match(plan[0]!, /SEARCH m USING INDEX photo_event_members_position \(\(event_id,position\)>\(\?,\?\)\)/, `the members' index walked from the keyset: ${plan.join(' / ')}`);

  const store = new PhotoEventsStore(db);
  for (const owner of [1, 2]) {
    const whole = store.membersOf(owner);
    const paged = await store.membersOfInSlices(owner, 7);
    assert.deepEqual([...paged.keys()], [...whole.keys()].sort(), `owner ${owner}: the same events, in id order`);
    for (const [id, rows] of whole) assert.deepEqual(paged.get(id), [...rows].sort((a, b) => a.position - b.position), `owner ${owner}, ${id}: the same members in order`);
    assert.ok(whole.size > 5);
  }
  db.close();
});

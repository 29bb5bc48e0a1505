/**
 * What an events rebuild costs the server's event loop and heap, shown by structure, not timing (issue 25 point 4):
 *  - the members of the owner's events are read once per rebuild (they served both the plan and the publish,
 *    read twice: 100k member rows held twice were a good part of the heap its major GCs marked);
 *  - the publish prepares no statement per event: the SQL it runs for every event is prepared once per
 *    connection and kept (preparing it anew was a third of a publish transaction's CPU);
 *  - and the events are the same as before: a steady rebuild after photos moved gives what a first rebuild of
 *    the moved library gives;
 *  - phases that are each sliced do not run back to back in one task of the event loop: the places data's last load
 *    step and the rebuild's first reads, the plan's last slice and the first publish transaction (each chain held the
 *    loop 36–58 ms in bench:events where each part alone stays near its 12 ms slice).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { PhotoEventsService } from '../../../server/src/features/photo-events/photo-events.service.ts';
import { buildJobRegistry } from '../../../server/src/jobs.ts';
import { Access } from '../../../server/src/platform/access/index.ts';
import type { Db } from '../../../server/src/platform/db/connection.ts';
import { JobQueue } from '../../../server/src/platform/jobs/queue.ts';
import { catalogOf } from '../helpers/factories.ts';
import { tempCatalog } from '../jobs/harness.ts';

const H = 3_600_000;
const T0 = Date.parse('2024-01-01T09:00:00Z');

/** `days` days with 3 photos each, a day apart (one event a day); the assets, in time order. */
function library(db: Db, days: number, username = 'm'): { owner: number; assets: string[] } {
  const owner = Number(db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES (?, ?, 'x', 'user', 0, 0)").run(username, username).lastInsertRowid);
  const cat = catalogOf(db);
  const repo = cat.repository({ name: `synthetic ${username}`, path: `/nonexistent/${username}`, status: 'offline' });
  const assets: string[] = [];
  for (let d = 0; d < days; d++) {
    for (let k = 0; k < 3; k++) {
      const t = T0 + d * 24 * H + k * 20 * 60_000;
      const asset = cat.asset({ owner_id: owner, repository_id: repo, original_filename: `d${d}-${k}.jpg`, taken_time: t, upload_time: t, capture_offset_minutes: 60, gps_latitude: 52.37, gps_longitude: 4.89 });
      cat.mediaItem(owner, 'photo', [{ asset_id: asset, relation: 'original' }]);
      assets.push(asset);
    }
  }
  return { owner, assets };
}

/** Each active event as the sorted file names of its members. */
function events(db: Db): string[][] {
  const rows = db
    .prepare(
      `SELECT m.event_id, a.original_filename AS name FROM photo_event_members m JOIN photo_events e ON e.event_id = m.event_id
       JOIN assets a ON a.media_item_id = m.media_item_id WHERE e.status = 'active'`,
    )
    .all() as { event_id: string; name: string }[];
  const by = new Map<string, string[]>();
  for (const r of rows) (by.get(r.event_id) ?? by.set(r.event_id, []).get(r.event_id)!).push(r.name);
  return [...by.values()].map((n) => n.sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

const cat = tempCatalog();
after(() => cat.cleanup());

test('an events rebuild reads the members once and prepares no statement per event; the events stay the same', async () => {
  const db = cat.db;
  const svc = new PhotoEventsService(db, new Access(db), new JobQueue(db, buildJobRegistry()), { sweepMs: 0 });
  try {
    const days = 60;
    const { owner, assets } = library(db, days);
    const first = await svc.rebuild(owner, 'first');
    assert.deepEqual(first, { events: days });

    // Photos of ten days move to the day before: their events change, the others stay.
    const move = db.prepare('UPDATE assets SET taken_time = taken_time - 24 * 3600000 + 2 * 3600000, upload_time = upload_time - 24 * 3600000 + 2 * 3600000 WHERE asset_id = ?');
    for (let d = 5; d < 15; d++) move.run(assets[d * 3]!);

    let memberReads = 0;
    const read = svc.store.membersOfInSlices.bind(svc.store);
    svc.store.membersOfInSlices = (...args) => {
      memberReads++;
      return read(...args);
    };
    const prepared: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof db.prepare;
    let steady;
    try {
      steady = await svc.rebuild(owner, 'steady');
    } finally {
      db.prepare = prepare as typeof db.prepare;
    }
    assert.deepEqual(steady, { events: days });
    assert.equal(memberReads, 1, 'the members are read once per rebuild');
    const changed = prepared.filter((sql) => /photo_event_members|UPDATE photo_events|INSERT INTO photo_events/.test(sql));
    assert.ok(changed.length < 10, `statements prepared for the publish: ${changed.length}, for ${days} events (10 of them changed):\n${changed.join('\n')}`);

    // The same events as a first rebuild of the moved library gives.
    const steadyEvents = events(db);
    db.prepare("DELETE FROM photo_event_members").run();
    db.prepare("DELETE FROM photo_events").run();
    assert.deepEqual(await svc.rebuild(owner, 'again'), { events: days });
    assert.deepEqual(events(db), steadyEvents);
    assert.ok(steadyEvents.some((e) => e.length === 4) && steadyEvents.some((e) => e.length === 2), 'the moved photos joined the day before');
  } finally {
    svc.stop();
  }
});

/**
 * Which task of the event loop is running: every setImmediate and setTimeout callback (the rebuild's turns, the
 * loader below) starts a new one. Work resumed by an awaited promise runs in the task that settled it.
 */
function taskCounter(): { now: () => number; restore: () => void } {
  let task = 0;
  const immediate = globalThis.setImmediate;
  const timeout = globalThis.setTimeout;
  globalThis.setImmediate = ((fn: (...a: unknown[]) => void, ...args: unknown[]) => immediate(() => (task++, fn(...args)))) as typeof setImmediate;
  globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => timeout(() => (task++, fn(...args)), ms)) as typeof setTimeout;
  return {
    now: () => task,
    restore: () => {
      globalThis.setImmediate = immediate;
      globalThis.setTimeout = timeout;
    },
  };
}

test('an events rebuild never starts a sliced phase in the task where the one before it ended', async () => {
  const db = cat.db;
  const tasks = taskCounter();
  // The places data loads in a task of its own (as the gazetteer's decode does, in turns), then names places.
  let loadedIn = -1;
  const ready = () => new Promise<void>((resolve) => setTimeout(() => ((loadedIn = tasks.now()), resolve()), 1));
  let lastNamedIn = -1;
  const at = () => ((lastNamedIn = tasks.now()), 'Amsterdam');
  const svc = new PhotoEventsService(db, new Access(db), new JobQueue(db, buildJobRegistry()), { sweepMs: 0, placeNames: { at, ready } });
  try {
    const days = 40;
    const { owner } = library(db, days, 'turns');
    let firstReadIn = -1;
    const read = svc.store.membersOfInSlices.bind(svc.store);
    svc.store.membersOfInSlices = (...args) => {
      if (firstReadIn < 0) firstReadIn = tasks.now();
      return read(...args);
    };
    let namedBeforePublish = -1;
    let firstPublishIn = -1;
    const insert = svc.store.insert.bind(svc.store);
    svc.store.insert = (...args) => {
      if (firstPublishIn < 0) [firstPublishIn, namedBeforePublish] = [tasks.now(), lastNamedIn];
      return insert(...args);
    };

    assert.deepEqual(await svc.runRebuildJob(owner, true, 'turns'), { published: true, events: days });
    assert.ok(loadedIn >= 0 && firstReadIn >= 0 && namedBeforePublish >= 0 && firstPublishIn >= 0, 'every phase ran');
    assert.notEqual(firstReadIn, loadedIn, "the rebuild's first read runs in a task after the places data's load");
    assert.notEqual(firstPublishIn, namedBeforePublish, 'the first publish transaction runs in a task after the plan ended');
  } finally {
    tasks.restore();
    svc.stop();
  }
});

/**
 * A people rebuild keeps the faces out of the server's isolate (issue 25 point 4: its garbage collector's pauses
 * were the longest event-loop stalls left during a rebuild of 100k faces). Structure, not timing:
 *  - the faces (their embeddings above all) are read by the clustering thread over a connection of its own:
 *    no statement the rebuild prepares on the server's connection reads an embedding;
 *  - the plan the main thread writes from is flat columns (typed arrays), not an object per face;
 *  - the clustering thread runs at a low CPU priority (Linux: nice 10), so that on a 2-core machine the server's
 *    loop does not wait for the CPU behind it;
 *  - the people list, read while a rebuild runs, computes its figures for the page's people only, and pages
 *    through the people in the documented order with the right counts;
 *  - the people are the same as those placed face by face, and as a rebuild of a catalog in memory gives (read
 *    on the caller's thread, since no other connection can open it).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { FACE_MODEL_ID } from '../../../server/src/features/faces/index.ts';
import { clusterOnThread } from '../../../server/src/features/faces/cluster-thread.ts';
import { FacesStore, planGroups } from '../../../server/src/features/faces/faces.store.ts';
import type { Db } from '../../../server/src/platform/db/connection.ts';
import { openDatabase } from '../../../server/src/platform/db/connection.ts';
import { migrate } from '../../../server/src/platform/db/migrate.ts';
import { PeopleService } from '../../../server/src/features/faces/people.service.ts';
import { buildJobRegistry } from '../../../server/src/jobs.ts';
import { Access } from '../../../server/src/platform/access/index.ts';
import { JobQueue } from '../../../server/src/platform/jobs/queue.ts';
import { catalogOf } from '../helpers/factories.ts';
import { tempCatalog } from '../jobs/harness.ts';

let seed = 7;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
const unit = (v: Float32Array) => {
  let s = 0;
  for (const x of v) s += x * x;
  return v.map((x) => x / (Math.sqrt(s) || 1));
};
const randomUnit = () => unit(Float32Array.from({ length: 128 }, gauss));

/** 12 identities of 20 faces (cosine to their centre ≈ 0.84) and 20 strangers, 4 faces a photo. */
const FACES = (() => {
  const out: Float32Array[] = [];
  for (let p = 0; p < 12; p++) {
    const c = randomUnit();
    for (let k = 0; k < 20; k++) out.push(unit(c.map((x, i) => x + 0.65 * randomUnit()[i]!)));
  }
  for (let k = 0; k < 20; k++) out.push(randomUnit());
  return out;
})();

/** The faces written photo by photo (each placed by the incremental pass); the owner's id. */
function library(db: Db): { store: FacesStore; owner: number } {
  const store = new FacesStore(db);
  const factory = catalogOf(db);
  const owner = Number(db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES ('m', 'm', 'x', 'user', 0, 0)").run().lastInsertRowid);
  const repo = factory.repository({ name: 'synthetic', path: '/nonexistent', status: 'offline' });
  for (let p = 0; p * 4 < FACES.length; p++) {
    const asset = factory.asset({ owner_id: owner, repository_id: repo, original_filename: `p${p}.jpg`, storage_path: `${owner}/p${p}.jpg` });
    const faces = FACES.slice(p * 4, p * 4 + 4).map((embedding, i) => ({ box: { x: 0.25 * i, y: 0.1, w: 0.2, h: 0.2 }, landmarks: [] as [number, number][], score: 0.9, embedding }));
    assert.ok(store.replace(asset, { width: 1000, height: 800, faces }, FACE_MODEL_ID));
  }
  return { store, owner };
}

/** The people as sorted lists of "photo#face" keys. */
function partition(db: Db): string[][] {
  const rows = db.prepare('SELECT a.original_filename AS name, f.face_no, f.person_id FROM faces f JOIN assets a ON a.asset_id = f.asset_id WHERE f.person_id IS NOT NULL').all() as { name: string; face_no: number; person_id: number }[];
  const by = new Map<number, string[]>();
  for (const r of rows) (by.get(r.person_id) ?? by.set(r.person_id, []).get(r.person_id)!).push(`${r.name}#${r.face_no}`);
  return [...by.values()].map((k) => k.sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

describe('a people rebuild keeps the faces out of the server’s isolate', { timeout: 120_000 }, () => {
  const cat = tempCatalog();
  after(() => cat.cleanup());

  test('its thread reads the faces: no statement on the server’s connection reads an embedding, and the people are the same', async () => {
    const { store, owner } = library(cat.db);
    const placed = partition(cat.db);
    assert.ok(placed.length >= 12, `people placed face by face: ${placed.length}`);
    // Every automatic place taken out: the rebuild must find and write them all again.
    cat.db.prepare("UPDATE faces SET person_id = NULL WHERE assigned_by = 'auto'").run();
    cat.db.prepare('DELETE FROM people').run();

    const prepared: string[] = [];
    const prepare = cat.db.prepare.bind(cat.db);
    cat.db.prepare = ((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof cat.db.prepare;
    let result;
    try {
      result = await store.rebuildOwner(owner);
    } finally {
      cat.db.prepare = prepare as typeof cat.db.prepare;
    }
    assert.equal(result.faces, FACES.length);
    assert.ok(prepared.some((sql) => /UPDATE faces/.test(sql)), 'the rebuild wrote on the server’s connection');
    assert.deepEqual(prepared.filter((sql) => /embedding/.test(sql)), [], 'no embedding read on the server’s connection');
    assert.deepEqual(partition(cat.db), placed, 'the people placed face by face');

    // A catalog in memory (no file for the thread to open) is read on the caller's thread: the same people.
    const mem = openDatabase(':memory:');
    try {
      migrate(mem);
      const m = library(mem);
      mem.prepare("UPDATE faces SET person_id = NULL WHERE assigned_by = 'auto'").run();
      mem.prepare('DELETE FROM people').run();
      await m.store.rebuildOwner(m.owner);
      assert.deepEqual(partition(mem), placed, 'the same people from a catalog in memory');
    } finally {
      mem.close();
    }
  });

  test('the clustering thread reads every face of the owner and runs at a low CPU priority', async () => {
    const owner = cat.db.prepare('SELECT owner_id FROM faces LIMIT 1').pluck().get() as number;
    const { cols, groups, nice } = await clusterOnThread({ file: cat.file, ownerId: owner });
    const ids = cat.db.prepare('SELECT face_id FROM faces WHERE owner_id = ? ORDER BY face_id').pluck().all(owner) as number[];
    assert.deepEqual([...cols.faceId], ids, 'every face of the owner, in face-id order');
    assert.equal(groups.length, ids.length);
    if (process.platform === 'linux') assert.equal(nice, 10, 'nice 10: the server’s loop comes first');
  });

  test('the people list pages in its order (named first, then by faces) with each person’s counts', () => {
    const db = cat.db;
    const owner = db.prepare('SELECT owner_id FROM faces LIMIT 1').pluck().get() as number;
    const people = new PeopleService(db, new Access(db), new FacesStore(db), new JobQueue(db, buildJobRegistry()), async () => null);
    const actor = { userId: owner, username: 'm', role: 'user' as const, sessionId: 's', via: 'bearer' as const };
    const some = db.prepare('SELECT person_id FROM people WHERE owner_id = ? ORDER BY person_id').pluck().all(owner) as number[];
    people.update(actor, some[3]!, { name: 'bea' });
    people.update(actor, some[1]!, { name: 'Anna' });
    const want = db
      .prepare(
        `SELECT p.person_id, p.name, count(f.face_id) AS faces, count(DISTINCT f.asset_id) AS assets FROM people p JOIN faces f ON f.person_id = p.person_id
         WHERE p.owner_id = ? GROUP BY p.person_id ORDER BY p.name IS NULL, p.name COLLATE NOCASE, faces DESC, p.person_id`,
      )
      .all(owner) as { person_id: number; name: string | null; faces: number; assets: number }[];
    assert.deepEqual(want.slice(0, 2).map((p) => p.name), ['Anna', 'bea']);
    const got: typeof want = [];
    for (let offset = 0; offset < want.length; offset += 5) {
      const page = people.list(actor, { limit: 5, offset });
      assert.equal(page.total, want.length);
      for (const p of page.people) got.push({ person_id: p.person_id, name: p.name, faces: p.member_count, assets: p.asset_count });
    }
    assert.deepEqual(got, want);
  });

  test('the plan it writes from is flat columns, new people contiguous in the order they are created', () => {
    const n = 1000;
    // 20 new groups of 50 faces each, none placed before; every tenth face pinned to no one.
    const cols = { n, faceId: Float64Array.from({ length: n }, (_, i) => i + 1), person: new Float64Array(n), user: Uint8Array.from({ length: n }, (_, i) => (i % 10 === 0 ? 1 : 0)) };
    const group = Float64Array.from({ length: n }, (_, i) => -(Math.floor(i / 50) + 1));
    const g = planGroups(cols, group, new Map(), new Set());
    let r = g.next();
    while (!r.done) r = g.next();
    const plan = r.value;
    assert.ok(plan.row instanceof Int32Array && plan.to instanceof Float64Array && plan.user instanceof Uint8Array, 'typed arrays, no object per face');
    assert.equal(plan.length, n);
    assert.equal(plan.newPeople, 20);
    for (let x = 0; x < n; x++) {
      assert.equal(plan.row[x], x);
      assert.equal(plan.to[x], -(Math.floor(x / 50) + 1), `row ${x}: the new person of its group`);
      assert.equal(plan.user[x], 0, `row ${x}: written as the rule's`);
    }
  });
});

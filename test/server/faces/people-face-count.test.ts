/**
 * A person's face count is kept on the person by the catalog (migration 0041), so that the people list chooses
 * its page without counting the owner's faces (issue 25 point 4: at 100k faces that count held the event loop
 * 25–35 ms on every People page load while a rebuild shared the machine). The count must stay the real one
 * whatever writes the faces, and a catalog upgraded with faces already placed starts with the right counts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FacesStore } from '../../../server/src/features/faces/faces.store.ts';
import { PeopleService } from '../../../server/src/features/faces/people.service.ts';
import { buildJobRegistry } from '../../../server/src/jobs.ts';
import { Access } from '../../../server/src/platform/access/index.ts';
import type { Db } from '../../../server/src/platform/db/connection.ts';
import { openDatabase } from '../../../server/src/platform/db/connection.ts';
import { loadMigrations, migrate } from '../../../server/src/platform/db/migrate.ts';
import { JobQueue } from '../../../server/src/platform/jobs/queue.ts';
import { catalogOf } from '../helpers/factories.ts';

/** Every person's kept count beside the faces actually with it; equal when the triggers did their work. */
function counts(db: Db): { kept: Record<number, number>; real: Record<number, number> } {
  const kept: Record<number, number> = {};
  const real: Record<number, number> = {};
  for (const r of db.prepare('SELECT person_id, face_count FROM people').all() as { person_id: number; face_count: number }[]) kept[r.person_id] = r.face_count;
  for (const id of Object.keys(kept)) real[Number(id)] = db.prepare('SELECT count(*) FROM faces WHERE person_id = ?').pluck().get(Number(id)) as number;
  return { kept, real };
}

function seed(db: Db) {
  const factory = catalogOf(db);
  const owner = Number(db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES ('m', 'm', 'x', 'user', 0, 0)").run().lastInsertRowid);
  const repo = factory.repository({ name: 'synthetic', path: '/nonexistent', status: 'offline' });
  const person = () => Number(db.prepare('INSERT INTO people (owner_id, created_at, updated_at) VALUES (?, 0, 0)').run(owner).lastInsertRowid);
  const assets = Array.from({ length: 4 }, (_, i) => factory.asset({ owner_id: owner, repository_id: repo, original_filename: `p${i}.jpg`, storage_path: `${owner}/p${i}.jpg` }));
  const face = (asset: string, no: number, personId: number | null) =>
    Number(
      db
        .prepare("INSERT INTO faces (asset_id, owner_id, face_no, model_id, x, y, w, h, landmarks, score, embedding, person_id) VALUES (?, ?, ?, 'm', 0, 0, 0.1, 0.1, '[]', 0.9, ?, ?)")
        .run(asset, owner, no, Buffer.alloc(512), personId).lastInsertRowid,
    );
  return { owner, assets, person, face };
}

describe('a person’s face count is kept on the person', () => {
  test('it follows every write of the faces: found, moved, let go, deleted with its photo, its person deleted', () => {
    const db = openDatabase(':memory:');
    try {
      migrate(db);
      const { assets, person, face } = seed(db);
      const [anna, ben, cleo] = [person(), person(), person()];
      const f = [face(assets[0]!, 0, anna), face(assets[0]!, 1, anna), face(assets[1]!, 0, ben), face(assets[2]!, 0, null), face(assets[3]!, 0, anna)];
      let c = counts(db);
      assert.deepEqual(c.kept, { [anna]: 3, [ben]: 1, [cleo]: 0 });
      assert.deepEqual(c.kept, c.real);

      db.prepare('UPDATE faces SET person_id = ? WHERE face_id = ?').run(ben, f[0]); // moved by a member
      db.prepare('UPDATE faces SET person_id = ? WHERE face_id = ?').run(cleo, f[3]); // found someone
      db.prepare('UPDATE faces SET person_id = NULL WHERE face_id = ?').run(f[1]); // let go
      db.prepare("UPDATE faces SET assigned_by = 'user' WHERE face_id = ?").run(f[2]); // pinned, not moved
      c = counts(db);
      assert.deepEqual(c.kept, { [anna]: 1, [ben]: 2, [cleo]: 1 });
      assert.deepEqual(c.kept, c.real);

      db.prepare('DELETE FROM assets WHERE asset_id = ?').run(assets[0]); // its faces go by cascade
      db.prepare('DELETE FROM people WHERE person_id = ?').run(cleo); // its faces are set to no one
      db.prepare('UPDATE faces SET person_id = ? WHERE face_id = ?').run(anna, f[3]);
      c = counts(db);
      assert.deepEqual(c.kept, { [anna]: 2, [ben]: 1 });
      assert.deepEqual(c.kept, c.real);
    } finally {
      db.close();
    }
  });

  test('a catalog upgraded with faces already placed starts with their counts, and the list reads no face to order its people', () => {
    const db = openDatabase(':memory:');
    try {
      const all = loadMigrations();
      const at = all.findIndex((m) => m.name === 'people_face_count');
      assert.ok(at > 0, 'the migration that keeps the count');
      migrate(db, { migrations: all.slice(0, at) });
      const { owner, assets, person, face } = seed(db);
      const [anna, ben] = [person(), person()];
      face(assets[0]!, 0, anna);
      face(assets[1]!, 0, anna);
      face(assets[2]!, 0, ben);
      migrate(db, { migrations: all });
      const c = counts(db);
      assert.deepEqual(c.kept, { [anna]: 2, [ben]: 1 });

      const people = new PeopleService(db, new Access(db), new FacesStore(db), new JobQueue(db, buildJobRegistry()), async () => null);
      const actor = { userId: owner, username: 'm', role: 'user' as const, sessionId: 's', via: 'bearer' as const };
      const prepared: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof db.prepare;
      let page;
      try {
        page = people.list(actor, { limit: 1 });
      } finally {
        db.prepare = prepare as typeof db.prepare;
      }
      assert.deepEqual(page.people.map((p) => [p.person_id, p.member_count]), [[anna, 2]], 'the person with most faces first');
      const choosing = prepared.find((sql) => /WITH page AS/.test(sql));
      assert.ok(choosing, 'the page is chosen by one statement');
      const pagePart = choosing.slice(choosing.indexOf('WITH page AS'), choosing.indexOf(')', choosing.indexOf('LIMIT')));
      assert.doesNotMatch(pagePart, /FROM faces/, `choosing the page counts no faces: ${pagePart}`);
    } finally {
      db.close();
    }
  });
});

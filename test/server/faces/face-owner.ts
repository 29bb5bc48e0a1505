/**
 * One owner of synthetic faces in a catalog on the jobs harness (the people rebuild registered), for the tests of the
 * incremental people pass (owner-face-vectors, face-components, copies-ahead): photos to put faces on and the owner's
 * people as one comparable string. Call it inside a `describe`: the catalog is removed after that suite.
 */
import { after } from 'node:test';
import { rebuildPeople } from '../../../server/src/features/faces/index.ts';
import { catalogOf } from '../helpers/factories.ts';
import { harness } from '../jobs/harness.ts';

export function faceOwner(name: string) {
  const h = harness([rebuildPeople]);
  after(() => h.cleanup());
  const factory = catalogOf(h.db);
  const repo = factory.repository({ name: 'synthetic', path: '/nonexistent', status: 'offline' });
  const owner = Number(h.db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES (?, ?, 'x', 'user', 0, 0)").run(name, name).lastInsertRowid);
  let photos = 0;
  /** A new photo of the owner's (its asset id). */
  const photo = () => factory.asset({ owner_id: owner, repository_id: repo, original_filename: `p${++photos}.jpg`, storage_path: `${name}/p${photos}.jpg` });
  /** Each face's person, in face-id order. */
  const people = () => JSON.stringify(h.db.prepare('SELECT person_id FROM faces WHERE owner_id = ? ORDER BY face_id').pluck().all(owner));
  return { h, factory, repo, owner, photo, people };
}

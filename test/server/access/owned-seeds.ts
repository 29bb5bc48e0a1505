/**
 * The owner-scoped things the ML and the background jobs would make, written straight into the catalog
 * for the permission matrices: people and faces (no face model runs here), a photo event, a duplicate group
 * and a named place; a cloud connection, an import run, a Takeout upload and a host action. The pipeline is not the subject
 * of the matrix; who may reach these rows is. Each row is what the job that makes it writes (the columns its own reads need), on the owner's real photos,
 * so the owner's calls get past "not found" and do what they do for real (a cover cut from the photo's
 * thumbnail, an event's members, a merge of duplicates).
 */
import crypto from 'node:crypto';
import type { Db } from '../../../server/src/platform/db/connection.ts';
import { FACE_MODEL_ID } from '../../../server/src/features/faces/index.ts';
import { geohashFields } from '../../../server/src/features/places/index.ts';
import { encodePlaceId } from '../../../server/src/features/places/place-id.ts';
import { seal } from '../../../server/src/platform/crypto/sealed.ts';

export interface OwnedSeeds {
  person: number[];
  face: number[];
  photo_event: string[];
  duplicate_group: string[];
  place: string[];
  cloud_credential: string[];
  import_run: string[];
  takeout_upload: string[];
  host_action: string[];
}

/** Two people (named with `mark`) with a face each, one event of the photos, one duplicate group of them and their place. */
export function seedOwnedKinds(db: Db, owner: { userId: number; assetIds: readonly string[]; repositoryId: string; mark: string; sealKey: Buffer; davUrl?: string }): OwnedSeeds {
  const now = Date.now();
  const [first, second] = owner.assetIds;
  if (!first || !second) throw new Error('two photos are needed');
  const person: number[] = [];
  const face: number[] = [];
  owner.assetIds.slice(0, 2).forEach((assetId, i) => {
    const p = Number(db.prepare('INSERT INTO people (owner_id, name, confirmed, created_at, updated_at) VALUES (?, ?, 1, ?, ?)').run(owner.userId, `${owner.mark} person ${i}`, now, now).lastInsertRowid);
    // A face the face task found on the photo (the matrix ran it), else one written here.
    const found = db.prepare('SELECT face_id FROM faces WHERE asset_id = ? ORDER BY face_no LIMIT 1').pluck().get(assetId) as number | undefined;
    if (found !== undefined) {
      db.prepare("UPDATE faces SET person_id = ?, assigned_by = 'user' WHERE face_id = ?").run(p, found);
      person.push(p);
      face.push(found);
      return;
    }
    const f = db
      .prepare(
        `INSERT INTO faces (asset_id, owner_id, face_no, model_id, x, y, w, h, landmarks, score, embedding, person_id, assigned_by)
         VALUES (?, ?, 0, ?, 0.4, 0.3, 0.2, 0.25, '[]', 0.99, ?, ?, 'user')`,
      )
      .run(assetId, owner.userId, FACE_MODEL_ID, Buffer.alloc(512), p).lastInsertRowid;
    person.push(p);
    face.push(Number(f));
  });

  // The event: the one the events job made of these photos if it ran, else one made here of them.
  const items = owner.assetIds.map((id) => db.prepare('SELECT media_item_id FROM assets WHERE asset_id = ?').pluck().get(id) as string | null).filter((x): x is string => !!x);
  let eventId = db.prepare("SELECT event_id FROM photo_events WHERE owner_id = ? AND status = 'active' ORDER BY start_at LIMIT 1").pluck().get(owner.userId) as string | undefined;
  if (!eventId) {
    eventId = crypto.randomUUID();
    db.prepare(
      `INSERT INTO photo_events (event_id, owner_id, status, algorithm_version, start_at, end_at, generated_title, created_at, updated_at)
       VALUES (?, ?, 'active', 'matrix', ?, ?, ?, ?, ?)`,
    ).run(eventId, owner.userId, now - 3_600_000, now, `${owner.mark} day`, now, now);
    items.forEach((item, i) => db.prepare("INSERT OR IGNORE INTO photo_event_members (event_id, media_item_id, position, origin) VALUES (?, ?, ?, 'segment')").run(eventId, item, i));
  }

  // A near-duplicate pair its owner dismissed (an administrator's detection, which the matrix runs, leaves
  // resolved groups alone; a pending one it would drop, as these two photos are not alike).
  const groupId = crypto.randomUUID();
  const sizes = owner.assetIds.slice(0, 2).map((id) => (db.prepare('SELECT file_size FROM assets WHERE asset_id = ?').pluck().get(id) as number | null) ?? 0);
  const [a, b] = [first, second].sort();
  db.prepare(
    `INSERT INTO duplicate_groups (group_id, owner_id, repository_id, status, method, detection_version, member_key, recommended_keeper_asset_id, detected_at, created_at, updated_at)
     VALUES (?, ?, ?, 'dismissed', 'phash', 'duplicates-v2', ?, ?, ?, ?, ?)`,
  ).run(groupId, owner.userId, owner.repositoryId, `${a},${b}`, first, now, now, now);
  db.prepare('UPDATE duplicate_groups SET resolved_at = ? WHERE group_id = ?').run(now, groupId);
  db.prepare("INSERT INTO duplicate_group_members (group_id, asset_id, role, position, file_size) VALUES (?, ?, 'keeper', 0, ?), (?, ?, 'candidate', 1, ?)").run(groupId, first, sizes[0], groupId, second, sizes[1]);
  db.prepare("INSERT INTO duplicate_group_edges (group_id, asset_id_a, asset_id_b, method, distance, confidence) VALUES (?, ?, ?, 'phash', 4, ?)").run(groupId, a, b, 1 - 4 / 64);

  // A place: the second photo taken in Lisbon (its cell named as the gazetteer would).
  const lat = 38.7223, lon = -9.1393;
  const { geohash5, geohash7 } = geohashFields(lat, lon);
  db.prepare('UPDATE assets SET gps_latitude = ?, gps_longitude = ?, geohash5 = ?, geohash7 = ? WHERE asset_id = ?').run(lat, lon, geohash5, geohash7, second);
  db.prepare("INSERT OR REPLACE INTO place_cells (geohash7, city, region, country, country_code, distance_km, provider, geocoded_at) VALUES (?, 'Lisbon', 'Lisbon', 'Portugal', 'PT', 0.5, 'matrix', ?)").run(geohash7, now);
  const place = encodePlaceId({ level: 'city', country_code: 'PT', region: 'Lisbon', city: 'Lisbon' });

  // A cloud connection (a WebDAV account, its secrets sealed as the service seals them) and a finished import run.
  // Its address: a WebDAV peer the test serves (so the owner's calls reach a real server), else a name that does not resolve.
  const davUrl = owner.davUrl ?? 'https://nas.invalid/dav/';
  const credentialId = crypto.randomUUID();
  const sealed = seal(owner.sealKey, JSON.stringify({ identity: `${davUrl}|family`, secrets: { password: owner.mark }, session: null }), credentialId);
  db.prepare(
    `INSERT INTO cloud_credentials (credential_id, owner_id, provider, identity_hash, display_name, status, public_config, sealed_state, created_at, updated_at)
     VALUES (?, ?, 'webdav', ?, ?, 'connected', ?, ?, ?, ?)`,
  ).run(credentialId, owner.userId, crypto.randomBytes(16).toString('hex'), 'Family NAS', JSON.stringify({ url: davUrl, username: 'family' }), sealed, now, now);
  const sourceId = crypto.randomUUID();
  db.prepare(
    `INSERT INTO cloud_sources (source_id, repository_id, credential_id, owner_id, provider, remote_scope, scope_key, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'webdav', '{"folder":""}', '{"folder":""}', ?, ?)`,
  ).run(sourceId, owner.repositoryId, credentialId, owner.userId, now, now);
  const runId = crypto.randomUUID();
  db.prepare(
    `INSERT INTO import_runs (run_id, source_key, source_id, credential_id, repository_id, owner_id, provider, status, total_seen, skipped_count, created_at, started_at, finished_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'webdav', 'completed', 1, 1, ?, ?, ?, ?)`,
  ).run(runId, sourceId, sourceId, credentialId, owner.repositoryId, owner.userId, now, now, now, now);
  db.prepare("INSERT INTO import_run_files (run_id, remote_id, name, folder, outcome, reason_code, reason, at) VALUES (?, ?, ?, '', 'skipped', 'not_media', 'Not a photo', ?)").run(runId, `${owner.mark}.txt`, `${owner.mark}.txt`, now);

  // A Takeout part half uploaded from the browser (its partial file is not needed: who reaches the row is the subject).
  const uploadId = crypto.randomUUID();
  db.prepare(
    `INSERT INTO takeout_uploads (upload_id, owner_id, repository_id, filename, size, received, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, 1048576, 0, 'uploading', ?, ?)`,
  ).run(uploadId, owner.userId, owner.repositoryId, `takeout-${owner.mark}-001.zip`, now, now);

  // A request that the home machine add a folder, waiting there (what createHostAction writes). Not named with
  // `mark`: an administrator's list shows every member's requests (as it does connections).
  const actionId = crypto.randomUUID();
  db.prepare(
    `INSERT INTO host_actions (action_id, owner_id, idempotency_key, request_hash, kind, name, purpose, code, status, version, expires_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'open_repository', 'Family folder', 'regular', '123456', 'pending', 1, ?, ?, ?)`,
  ).run(actionId, owner.userId, `matrix-${actionId}`, '0'.repeat(64), now + 86_400_000, now, now);

  return { person, face, photo_event: [eventId], duplicate_group: [groupId], place: [place], cloud_credential: [credentialId], import_run: [runId], takeout_upload: [uploadId], host_action: [actionId] };
}

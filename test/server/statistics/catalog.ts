/**
 * Shared set-up for the browse-side read tests (folders, places, statistics, featured): a real
 * server with two users, real corpus files indexed through the ingest path, and rows inserted with
 * SQL for larger or edge-case catalogs.
 *
 * SQL rows go to a second repository registered only in the catalog (no marker file on disk, so it
 * is never scanned and its rows are never marked missing); corpus files go to the primary one.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { addMember, registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';

export interface World {
  srv: TestServer;
  alice: Client;
  bob: Client;
  aliceId: number;
  bobId: number;
  primary: { repository_id: string; name: string };
  /** The SQL-only repository. */
  synth: { repository_id: string; name: string };
}

export async function setup(): Promise<World> {
  const srv = await startServer();
  const alice = new Client(srv.url);
  const me = await registerAdmin(alice);
  const bob = new Client(srv.url);
  const b = await addMember(alice, bob, 'bob');
  await srv.container.jobRunner.whenIdle();
  const primary = srv.container.repositories.primary()!;
  const synth = { repository_id: crypto.randomUUID(), name: 'Archive NAS' };
  const dir = path.join(srv.dataDir, 'not-a-repository');
  fs.mkdirSync(dir, { recursive: true });
  const now = Date.now();
  srv.container.db
    .prepare("INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES (?, ?, ?, 'regular', ?, ?)")
    .run(synth.repository_id, synth.name, dir, now, now);
  return {
    srv,
    alice,
    bob,
    aliceId: me.session.user.user_id,
    bobId: b.session.user.user_id,
    primary: { repository_id: primary.repository_id, name: primary.name },
    synth,
  };
}

/** Copies a corpus file into the primary repository at `dest` and indexes it for `ownerId`. */
export async function indexCorpus(w: World, src: string, dest: string, ownerId: number): Promise<string> {
  const repo = w.srv.container.repositories.primary()!;
  fs.mkdirSync(path.join(repo.path, path.dirname(dest)), { recursive: true });
  fs.copyFileSync(path.join(CORPUS, src), path.join(repo.path, dest));
  const r = await w.srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: dest, ownerId, source: 'scan' });
  assert.equal(r.outcome, 'created', `${dest}: ${JSON.stringify(r)}`);
  return (r as { asset_id: string }).asset_id;
}

export interface Row {
  owner: number;
  repo: string;
  path: string;
  type?: 'PHOTO' | 'VIDEO' | 'AUDIO';
  state?: 'pending' | 'processing' | 'ready' | 'failed';
  taken?: number | null;
  offset?: number | null;
  upload?: number;
  lat?: number | null;
  lon?: number | null;
  deleted?: boolean;
  width?: number | null;
  height?: number | null;
  rating?: number;
  liked?: boolean;
  meta?: Record<string, unknown> | null;
  id?: string;
}

/** Inserts one asset row directly; returns its id. */
export function insertAsset(w: World, r: Row): string {
  const id = r.id ?? crypto.randomUUID();
  const upload = r.upload ?? Date.now();
  const type = r.type ?? 'PHOTO';
  w.srv.container.db
    .prepare(
      `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, width, height,
         taken_time, capture_offset_minutes, upload_time, gps_latitude, gps_longitude, liked, rating, is_deleted, deleted_at,
         specific_metadata, state, status, created_at, updated_at)
       VALUES (@id, @owner, @repo, @path, @type, @name, @mime, 1000, @width, @height, @taken, @offset, @upload, @lat, @lon, @liked, @rating,
         @deleted, @deleted_at, @meta, @state, '[]', @upload, @upload)`,
    )
    .run({
      id,
      owner: r.owner,
      repo: r.repo,
      path: r.path,
      type,
      name: path.posix.basename(r.path),
      mime: type === 'PHOTO' ? 'image/jpeg' : type === 'VIDEO' ? 'video/mp4' : 'audio/mpeg',
      width: r.width === undefined ? 4000 : r.width,
      height: r.height === undefined ? 3000 : r.height,
      taken: r.taken === undefined ? null : r.taken,
      offset: r.offset ?? null,
      upload,
      lat: r.lat ?? null,
      lon: r.lon ?? null,
      liked: r.liked ? 1 : 0,
      rating: r.rating ?? 0,
      deleted: r.deleted ? 1 : 0,
      deleted_at: r.deleted ? upload : null,
      meta: r.meta ? JSON.stringify(r.meta) : null,
      state: r.state ?? 'ready',
    });
  return id;
}

/** Links assets into one media item, in this order (the first is the primary). */
export function linkItem(w: World, ownerId: number, ids: string[], relations: string[]): string {
  const db = w.srv.container.db;
  const itemId = crypto.randomUUID();
  const now = Date.now();
  db.prepare("INSERT INTO media_items (media_item_id, owner_id, media_kind, primary_asset_id, created_at, updated_at) VALUES (?, ?, 'photo', ?, ?, ?)").run(
    itemId,
    ownerId,
    ids[0],
    now,
    now,
  );
  ids.forEach((id, i) => {
    db.prepare('INSERT INTO media_item_components (media_item_id, asset_id, position, relation) VALUES (?, ?, ?, ?)').run(itemId, id, i, relations[i]);
    db.prepare('UPDATE assets SET media_item_id = ? WHERE asset_id = ?').run(itemId, id);
  });
  return itemId;
}

export const utc = (iso: string) => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`);

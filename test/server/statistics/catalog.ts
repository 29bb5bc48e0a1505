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
import { Client, startServer, templateClient, type TestServer } from '../helpers/server.ts';
import type { Recipe } from '../../template/recipes.ts';
import { addMember, registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { catalogOf } from '../helpers/factories.ts';

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

/**
 * `template`: the household and its corpus files come from that recipe's template (test/template),
 * ingested once per run instead of by the test file: its asset ids are `srv.template.assets`.
 */
export async function setup(opts: { template?: Recipe } = {}): Promise<World> {
  const srv = await startServer({ template: opts.template });
  let alice: Client, bob: Client, aliceId: number, bobId: number;
  if (srv.template) {
    [alice, bob] = [await templateClient(srv, 'alice'), await templateClient(srv, 'bob')];
    [aliceId, bobId] = [srv.template.users.alice!.id, srv.template.users.bob!.id];
  } else {
    alice = new Client(srv.url);
    aliceId = (await registerAdmin(alice)).session.user.user_id;
    bob = new Client(srv.url);
    bobId = (await addMember(alice, bob, 'bob')).session.user.user_id;
  }
  await srv.container.jobRunner.whenIdle();
  const primary = srv.container.repositories.primary()!;
  const synth = { repository_id: crypto.randomUUID(), name: 'Archive NAS' };
  const dir = path.join(srv.dataDir, 'not-a-repository');
  fs.mkdirSync(dir, { recursive: true });
  catalogOf(srv.container.db).repository({ ...synth, path: dir });
  return {
    srv,
    alice,
    bob,
    aliceId,
    bobId,
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

/** Writes one asset row through the catalog factory; returns its id. */
export function insertAsset(w: World, r: Row): string {
  const upload = r.upload ?? Date.now();
  const type = r.type ?? 'PHOTO';
  return catalogOf(w.srv.container.db).asset({
    asset_id: r.id,
    owner_id: r.owner,
    repository_id: r.repo,
    storage_path: r.path,
    type,
    original_filename: path.posix.basename(r.path),
    mime_type: type === 'PHOTO' ? 'image/jpeg' : type === 'VIDEO' ? 'video/mp4' : 'audio/mpeg',
    width: r.width === undefined ? 4000 : r.width,
    height: r.height === undefined ? 3000 : r.height,
    taken_time: r.taken ?? null,
    capture_offset_minutes: r.offset ?? null,
    upload_time: upload,
    created_at: upload,
    gps_latitude: r.lat ?? null,
    gps_longitude: r.lon ?? null,
    liked: r.liked ? 1 : 0,
    rating: r.rating ?? 0,
    is_deleted: r.deleted ? 1 : 0,
    deleted_at: r.deleted ? upload : null,
    specific_metadata: r.meta ? JSON.stringify(r.meta) : null,
    state: r.state ?? 'ready',
  });
}

/** Links assets into one media item, in this order (the first is the primary). */
export function linkItem(w: World, ownerId: number, ids: string[], relations: string[]): string {
  return catalogOf(w.srv.container.db).mediaItem(ownerId, 'photo', ids.map((asset_id, i) => ({ asset_id, relation: relations[i]! })));
}

export const utc = (iso: string) => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`);

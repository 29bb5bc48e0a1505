/**
 * Album test setup: a real server, alice (admin) and bob (member) signed in, and real corpus files
 * indexed into the primary repository through the real ingest path and media pipeline.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { Client, startServer, type HttpResult, type TestServer } from '../helpers/server.ts';
import { CORPUS } from '../media/corpus.ts';

export interface Album {
  album_id: number;
  album_name: string;
  album_type: 'regular' | 'bio';
  description: string | null;
  asset_count: number;
  cover_asset_id: string | null;
  display_cover_asset_id: string | null;
  created_at: string;
  updated_at: string;
  user_id: number;
}

export interface AlbumAsset {
  asset_id: string;
  owner_id: number;
  type: string;
  original_filename: string;
  is_deleted: boolean;
  species_predictions: { label: string; score: number }[];
  added_time: string;
  position: number;
}

export interface World {
  srv: TestServer;
  alice: Client;
  bob: Client;
  aliceId: number;
  bobId: number;
  /** Asset ids by key. */
  ids: Record<string, string>;
}

/** Indexes corpus files (key → corpus path) for an owner; returns asset ids by key. */
export async function indexFiles(srv: TestServer, files: Record<string, string>, ownerId: number): Promise<Record<string, string>> {
  const repo = srv.container.repositories.primary()!;
  const out: Record<string, string> = {};
  for (const [key, rel] of Object.entries(files)) {
    const dest = `${key}/${path.basename(rel)}`;
    fs.mkdirSync(path.join(repo.path, key), { recursive: true });
    fs.copyFileSync(path.join(CORPUS, rel), path.join(repo.path, dest));
    const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: dest, ownerId, source: 'scan' });
    assert.ok('asset_id' in r && r.outcome !== 'duplicate', `${rel}: ${JSON.stringify(r)}`);
    out[key] = r.asset_id;
  }
  await srv.container.jobRunner.whenIdle();
  return out;
}

export async function setup(aliceFiles: Record<string, string>, bobFiles: Record<string, string>): Promise<World> {
  const srv = await startServer();
  const alice = new Client(srv.url);
  const me = await registerAdmin(alice);
  const bob = new Client(srv.url);
  const b = await addMember(alice, bob, 'bob');
  const ids = { ...(await indexFiles(srv, aliceFiles, me.session.user.user_id)), ...(await indexFiles(srv, bobFiles, b.session.user.user_id)) };
  return { srv, alice, bob, aliceId: me.session.user.user_id, bobId: b.session.user.user_id, ids };
}

export function ok<T = any>(c: Client, r: HttpResult, status = 200): T {
  assert.equal(r.status, status, r.text);
  return data<T>(c, r);
}

/** Asserts a problem with this status (and code), and that `field` is named in `errors[]` when given. */
export function fails(c: Client, r: HttpResult, status: number, opts: { code?: string; field?: string } = {}) {
  assert.equal(r.status, status, r.text);
  const p = problem(c, r);
  if (opts.code) assert.equal(p.code, opts.code, JSON.stringify(p));
  if (opts.field) assert.ok(p.errors?.some((e) => e.field === opts.field), `names ${opts.field}: ${JSON.stringify(p)}`);
  return p;
}

export async function createAlbum(c: Client, body: Record<string, unknown>): Promise<Album> {
  return ok<Album>(c, await c.post(`${V1}/albums`, body), 201);
}

export async function albumAssets(c: Client, albumId: number, q = ''): Promise<{ album_id: number; assets: AlbumAsset[]; count: number }> {
  return ok(c, await c.get(`${V1}/albums/${albumId}/assets${q}`));
}

/** The stored positions of an album, in order: must always be 0..n-1. */
export function storedOrder(srv: TestServer, albumId: number): { asset_id: string; position: number }[] {
  return srv.container.db.prepare('SELECT asset_id, position FROM album_assets WHERE album_id = ? ORDER BY position').all(albumId) as {
    asset_id: string;
    position: number;
  }[];
}

export function del(c: Client, p: string) {
  return c.req('DELETE', p);
}

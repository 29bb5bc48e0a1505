/**
 * Repository test helpers: temporary folders holding a `.hearth-repo` marker and real media copied
 * from the shared corpus, a signed-in admin (and member) on a real server, and polling of the catalog
 * (no fixed sleeps: every wait is a condition with a deadline).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addMember, data, registerAdmin, V1 } from '../helpers/api.ts';
import { after, before } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';

import { CORPUS } from '../media/corpus.ts';

export { CORPUS };

/** Small, distinct real photos from the corpus. */
export const PHOTOS = ['exif/Canon_40D.jpg', 'duplicates/bee.jpg', 'exif/Nikon_D70.jpg', 'exif/Pentax_K10D.jpg', 'exif/Olympus_E-P3.jpg'];

export function corpusFile(rel: string): string {
  return path.join(CORPUS, ...rel.split('/'));
}

const temps: string[] = [];

export function tempDir(prefix = 'hearth-repo-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(d);
  return d;
}

export function cleanupTemps(): void {
  for (const d of temps.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export function writeMarker(dir: string, id: string = crypto.randomUUID(), name = 'Test'): string {
  fs.writeFileSync(
    path.join(dir, '.hearth-repo'),
    JSON.stringify({ format: 'hearth-repository', version: 1, id, name, created_at: new Date().toISOString() }),
  );
  return id;
}

/** A folder with a marker and the given corpus files copied in (`{ 'a/b.jpg': 'exif/Canon_40D.jpg' }`). */
export function makeRepoFolder(files: Record<string, string> = {}, opts: { marker?: boolean } = {}): { dir: string; id: string | null } {
  const dir = tempDir();
  const id = opts.marker === false ? null : writeMarker(dir);
  for (const [rel, src] of Object.entries(files)) copyIn(dir, rel, src);
  return { dir, id };
}

export function copyIn(dir: string, rel: string, corpusRel: string): string {
  const dest = path.join(dir, ...rel.split('/'));
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.copyFileSync(corpusFile(corpusRel), dest);
  return dest;
}

/** Waits until `fn` returns a truthy value (or `timeoutMs` passes: then fails with `what`). */
export async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface AssetRow {
  asset_id: string;
  owner_id: number;
  repository_id: string;
  storage_path: string;
  file_size: number;
  file_mtime: number | null;
  hash: string | null;
  is_deleted: number;
}

export function assetAt(ts: TestServer, repositoryId: string, storagePath: string): AssetRow | undefined {
  return ts.container.db
    .prepare('SELECT * FROM assets WHERE repository_id = ? AND storage_path = ?')
    .get(repositoryId, storagePath) as AssetRow | undefined;
}

export function assetsOf(ts: TestServer, repositoryId: string): AssetRow[] {
  return ts.container.db.prepare('SELECT * FROM assets WHERE repository_id = ? ORDER BY storage_path').all(repositoryId) as AssetRow[];
}

export interface Env {
  ts: TestServer;
  admin: Client;
  member: Client;
  adminId: number;
}

/** A server with an administrator and a member, both signed in. */
export async function startEnv(opts: { variant?: 'A' | 'B'; dataDir?: string } = {}): Promise<Env> {
  const ts = await startServer(opts.dataDir ? { dataDir: opts.dataDir } : {});
  const admin = new Client(ts.url, opts.variant ?? 'A');
  const member = new Client(ts.url, opts.variant ?? 'A');
  const signed = await registerAdmin(admin);
  await addMember(admin, member, 'bob');
  return { ts, admin, member, adminId: signed.session.user.user_id };
}

export async function createRepo(env: Env, dir: string, name = 'Family'): Promise<any> {
  const r = await env.admin.post(`${V1}/repositories`, { name, path: dir });
  assert.equal(r.status, 201, r.text);
  return data(env.admin, r);
}

/** Waits for the newest scan of a repository to finish and returns it. */
export async function waitForScan(env: Env, repositoryId: string, where?: (scan: any) => boolean): Promise<any> {
  return waitFor('a finished scan', async () => {
    const r = await env.admin.get(`${V1}/repositories/${repositoryId}/scans/latest`);
    const scan = data(env.admin, r).scan;
    return scan && !['queued', 'running'].includes(scan.status) && (!where || where(scan)) ? scan : null;
  });
}

/** Queues a scan and waits for it to finish. */
export async function scanNow(env: Env, repositoryId: string, body: object = {}): Promise<any> {
  const r = await env.admin.post(`${V1}/repositories/${repositoryId}/scans`, body);
  assert.ok(r.status === 202 || r.status === 200, r.text);
  const { scan } = data(env.admin, r);
  return waitForScan(env, repositoryId, (s) => s.scan_id === scan.scan_id);
}

/**
 * Starts an environment before the suite's tests and stops it (and removes temporary folders)
 * after them; `set` receives it for the suite's own variable.
 */
export function useEnv(set: (env: Env) => void): void {
  let env: Env | undefined;
  before(async () => {
    env = await startEnv();
    set(env);
  });
  after(async () => {
    await env?.ts.stop({ removeData: true });
    cleanupTemps();
  });
}

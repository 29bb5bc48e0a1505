/**
 * A new source in a few dozen lines (folder-source.ts, test-only) gets what the one door into the catalog owns:
 * per-owner deduplication (a re-run is `unchanged`; another member gets an asset of their own), the source's facts
 * carried (the name it gives), and crash safety (killed right after the commit, the next start catalogues the file
 * once, for the member the source acted for). The source itself never touches the assets feature.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { Client, startServer, tempDataDir } from '../helpers/server.ts';
import { addMember, registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../uploads/helpers.ts';
import { ROOT, until } from '../crash/child.ts';
import { runFolderSource } from './folder-source.ts';

const FILES = ['gps/DSCN0025.jpg', 'exif/Nikon_D70.jpg'];

function sourceFolder(): string {
  const dir = fs.mkdtempSync(path.join(tempDataDir('hearth-folder-source-'), 'src-'));
  for (const f of FILES) fs.copyFileSync(path.join(CORPUS, f), path.join(dir, path.basename(f)));
  // The source's facts, next to the file: the name to show.
  fs.writeFileSync(path.join(dir, 'DSCN0025.jpg.json'), JSON.stringify({ originalName: 'lake at dawn.jpg' }));
  return dir;
}

test('the folder source: a re-run is unchanged, another member gets their own asset, the source’s name is kept', async () => {
  const srv = await startServer();
  try {
    const alice = new Client(srv.url);
    await registerAdmin(alice);
    const bob = new Client(srv.url);
    const bobId = (await addMember(alice, bob, 'bob')).session.user.user_id as number;
    const aliceId = srv.container.db.prepare(`SELECT user_id FROM users WHERE username = 'alice'`).pluck().get() as number;
    const repo = srv.container.repositories.primary()!;
    const folder = sourceFolder();
    const run = (owner: number) => runFolderSource(srv.container.door, srv.container.intake, repo, owner, folder);

    const first = await run(aliceId);
    assert.deepEqual(first.map((r) => r.result.outcome), ['created', 'created']);
    const second = await run(aliceId);
    assert.deepEqual(second.map((r) => r.result.outcome), ['unchanged', 'unchanged'], 'a re-run brings nothing new');
    assert.deepEqual(second.map((r) => 'assetId' in r.result && r.result.assetId), first.map((r) => 'assetId' in r.result && r.result.assetId));
    const forBob = await run(bobId);
    assert.deepEqual(forBob.map((r) => r.result.outcome), ['created', 'created'], 'another member gets assets of their own');

    const rows = srv.container.db.prepare('SELECT owner_id, original_filename, storage_path FROM assets ORDER BY owner_id, original_filename').all() as { owner_id: number; original_filename: string; storage_path: string }[];
    assert.equal(rows.length, 4);
    assert.deepEqual(rows.map((r) => [r.owner_id, r.original_filename]), [
      [aliceId, 'Nikon_D70.jpg'],
      [aliceId, 'lake at dawn.jpg'],
      [bobId, 'Nikon_D70.jpg'],
      [bobId, 'lake at dawn.jpg'],
    ]);
    assert.ok(rows.every((r) => r.storage_path.startsWith('imports/')), 'committed under imports/');
    assert.equal(srv.container.db.prepare('SELECT count(*) FROM intake_commits').pluck().get(), 0, 'no commit record left');
  } finally {
    await srv.stop({ removeData: true });
  }
});

test('the folder source killed right after a commit: the next start catalogues the file once, for its member', { timeout: 240_000 }, async () => {
  const dataDir = tempDataDir('hearth-folder-crash-');
  let srv = await startServer({ dataDir });
  const alice = new Client(srv.url);
  await registerAdmin(alice);
  const bob = new Client(srv.url);
  const bobId = (await addMember(alice, bob, 'bob')).session.user.user_id as number;
  await srv.stop();
  try {
    const folder = sourceFolder();
    const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'test/server/intake/folder-source-child.ts', dataDir, String(bobId), folder], {
      cwd: ROOT,
      env: { ...process.env, HEARTH_FAILPOINT: 'intake.after-commit' },
      stdio: 'ignore',
    });
    const how = await new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    assert.equal(how, 'SIGKILL', 'the crash point killed the source after its first commit');

    srv = await startServer({ dataDir });
    const db = srv.container.db;
    const hash = await hashFile(path.join(folder, 'DSCN0025.jpg'));
    const row = await until('the committed file catalogued at start', () => db.prepare('SELECT owner_id, original_filename FROM assets WHERE hash = ?').get(hash) as { owner_id: number; original_filename: string } | undefined);
    assert.equal(row.owner_id, bobId, 'the member the source acted for owns it, not the repository’s default owner');
    assert.equal(row.original_filename, 'lake at dawn.jpg', 'with the name from the source’s facts');
    assert.equal(db.prepare('SELECT count(*) FROM intake_commits').pluck().get(), 0, 'no commit record left');

    const again = await runFolderSource(srv.container.door, srv.container.intake, srv.container.repositories.primary()!, bobId, folder);
    assert.deepEqual(again.map((r) => r.result.outcome), ['unchanged', 'created'], 'the re-run after the crash adds only the file it never reached');
    assert.equal(db.prepare('SELECT count(*) FROM assets WHERE hash = ?').pluck().get(hash), 1, 'catalogued exactly once');
  } finally {
    await srv.stop({ removeData: true });
  }
});

test('the folder source imports nothing from the assets feature (it reaches the catalog only through the door)', () => {
  const src = fs.readFileSync(path.join(import.meta.dirname, 'folder-source.ts'), 'utf8');
  const imports = [...src.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  assert.ok(imports.length >= 3, `the scan found the imports: ${imports.join(', ')}`);
  assert.deepEqual(imports.filter((i) => /features\/(?!intake\/index\.ts$)/.test(i)), [], 'only the intake’s public face among the features');
  assert.ok(!/\bassets\b/i.test(src.replace(/features\/assets/g, 'X').replace(/^ \*.*$/gm, '')), 'no SQL on the assets table either');
});

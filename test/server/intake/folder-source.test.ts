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
import sharp from 'sharp';
import { V1, addMember, data, registerAdmin } from '../helpers/api.ts';
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

test('the folder source’s facts by the one precedence rule: its time and GPS beat EXIF, a person’s edit beats a re-run, the file’s date is the last resort', async () => {
  const srv = await startServer();
  try {
    const alice = new Client(srv.url);
    await registerAdmin(alice);
    const db = srv.container.db;
    const aliceId = db.prepare(`SELECT user_id FROM users WHERE username = 'alice'`).pluck().get() as number;
    const dir = fs.mkdtempSync(path.join(tempDataDir('hearth-folder-facts-'), 'src-'));
    // DSCN0025.jpg: EXIF date 2008-10-22 and GPS in Tuscany; its record says otherwise (the household's own account).
    fs.copyFileSync(path.join(CORPUS, 'gps/DSCN0025.jpg'), path.join(dir, 'DSCN0025.jpg'));
    const sourceTime = Date.UTC(1999, 11, 31, 22, 30, 0);
    fs.writeFileSync(path.join(dir, 'DSCN0025.jpg.json'), JSON.stringify({ capturedAt: { time: sourceTime, offsetMinutes: 60 }, gps: { latitude: 48.8584, longitude: 2.2945 }, favorite: true, sourceRef: { source: 'folder', id: 'DSCN0025', version: '1' } }));
    // A picture with no date inside and no record: its file's date is all there is.
    const plain = path.join(dir, 'plain.png');
    await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3a6' } }).png().toFile(plain);
    const fileDate = new Date(Date.UTC(2015, 4, 6, 7, 8, 9));
    fs.utimesSync(plain, fileDate, fileDate);

    const first = await runFolderSource(srv.container.door, srv.container.intake, srv.container.repositories.primary()!, aliceId, dir);
    assert.deepEqual(first.map((r) => r.result.outcome), ['created', 'created']);
    const [lake, plainId] = first.map((r) => ('assetId' in r.result ? r.result.assetId : ''));
    type Row = { state: string; taken_time: number | null; capture_offset_minutes: number | null; time_source: string | null; gps_latitude: number | null; gps_longitude: number | null; place_source: string | null; file_taken_time: number | null; file_gps_latitude: number | null; liked: number };
    const row = (id: string) => db.prepare('SELECT * FROM assets WHERE asset_id = ?').get(id) as Row;
    await until('both processed', () => row(lake!).state === 'ready' && row(plainId!).state === 'ready');

    const l = row(lake!);
    assert.deepEqual([l.taken_time, l.capture_offset_minutes, l.time_source], [sourceTime, 60, 'source'], 'the source’s time and zone beat the EXIF date');
    assert.deepEqual([l.gps_latitude, l.gps_longitude], [48.8584, 2.2945], 'the source’s GPS beats the EXIF GPS');
    assert.equal(l.liked, 1, 'the source’s favourite');
    assert.ok(l.file_taken_time !== null && l.file_taken_time !== sourceTime && l.file_gps_latitude !== null && Math.abs(l.file_gps_latitude - 43.46) < 0.1, 'the file’s own values are kept beside them');
    const p = row(plainId!);
    assert.deepEqual([p.taken_time, p.time_source], [fileDate.getTime(), 'file_modified'], 'no date inside and no facts: the file’s modification time');
    const view = data(alice, await alice.get(`${V1}/assets/${lake}`));
    assert.equal(view.time_source, 'source', 'the client sees where the time came from');

    // A person corrects the time and clears the favourite; a re-run of the source and a run of the pipeline change neither.
    data(alice, await alice.put(`${V1}/assets/${lake}/capture-time`, { local_time: '2010-07-04T12:00:00', offset_minutes: 0 }));
    db.prepare('UPDATE assets SET liked = 0 WHERE asset_id = ?').run(lake);
    const again = await runFolderSource(srv.container.door, srv.container.intake, srv.container.repositories.primary()!, aliceId, dir);
    assert.deepEqual(again.map((r) => r.result.outcome), ['unchanged', 'unchanged'], 'a re-run with the same source ref and version');
    const before = row(lake!).taken_time;
    data(alice, await alice.post(`${V1}/assets/${lake}/reprocess`, {}));
    await until('processed again', () => {
      const r = row(lake!);
      const job = db.prepare(`SELECT state FROM jobs WHERE kind = 'assets.process-asset' AND json_extract(args, '$.asset_id') = ? ORDER BY id DESC LIMIT 1`).pluck().get(lake) as string;
      return job === 'completed' && r.state === 'ready';
    });
    const after = row(lake!);
    assert.deepEqual([after.taken_time, after.time_source], [before, 'user'], 'the person’s time beats the re-run');
    assert.equal(after.taken_time, Date.UTC(2010, 6, 4, 12, 0, 0));
    assert.deepEqual([after.gps_latitude, after.place_source], [48.8584, 'file'], 'the source’s place stands where nobody corrected it');
    assert.equal(after.liked, 0, 'a favourite the person took back is not given back by a re-run');
    // Taking the correction back goes to the next in the rule: the source's time, not the EXIF date.
    data(alice, await alice.req('DELETE', `${V1}/assets/${lake}/capture-time`));
    assert.deepEqual([row(lake!).taken_time, row(lake!).time_source], [sourceTime, 'source'], 'restored to the source’s time');
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

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
import { V1, addMember, data, login, registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../uploads/helpers.ts';
import { ROOT, until } from '../crash/child.ts';
import { runFolderSource } from './folder-source.ts';
import { geohashFields } from '../../../server/src/features/places/index.ts';
import { mergeFacts, type SourceFacts } from '../../../server/src/features/assets/fact-precedence.ts';

const FILES = ['gps/DSCN0025.jpg', 'exif/Nikon_D70.jpg'];

/** The household every test here starts with: alice (the administrator) and bob, signed in, with their ids. */
async function household(srv: Awaited<ReturnType<typeof startServer>>) {
  const alice = new Client(srv.url);
  await registerAdmin(alice);
  const bob = new Client(srv.url);
  const bobId = (await addMember(alice, bob, 'bob')).session.user.user_id as number;
  const aliceId = srv.container.db.prepare(`SELECT user_id FROM users WHERE username = 'alice'`).pluck().get() as number;
  return { alice, bob, aliceId, bobId, repo: srv.container.repositories.primary()! };
}

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
    const { aliceId, bobId, repo } = await household(srv);
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

test('the folder source’s album names and re-runs: albums made or matched, one asset in every album folder, changed facts moved (updated), a person’s removal and time kept', { timeout: 240_000 }, async () => {
  const srv = await startServer();
  try {
    const { alice, bob, aliceId, bobId, repo } = await household(srv);
    const aliceB = new Client(srv.url, 'B');
    await login(aliceB, 'alice');
    const db = srv.container.db;
    const run = (folder: string, owner = aliceId) => runFolderSource(srv.container.door, srv.container.intake, repo, owner, folder);
    const outcomes = (runs: Awaited<ReturnType<typeof run>>) => runs.map((r) => r.result.outcome);
    const idOf = (runs: Awaited<ReturnType<typeof run>>) => (runs[0]!.result as { assetId: string }).assetId;
    const albumsOf = async (c: Client, id: string) => (data(c, await c.get(`${V1}/assets/${id}/albums`)).albums as { album_id: number; album_name: string; user_id: number }[]).map((a) => `${a.album_name}#${a.album_id}`).sort();
    const folderWith = (file: string, facts: object) => {
      const dir = fs.mkdtempSync(path.join(tempDataDir('hearth-folder-albums-'), 'src-'));
      fs.copyFileSync(path.join(CORPUS, file), path.join(dir, path.basename(file)));
      fs.writeFileSync(path.join(dir, `${path.basename(file)}.json`), JSON.stringify(facts));
      return dir;
    };
    const sidecar = (dir: string, facts: object) => fs.writeFileSync(path.join(dir, fs.readdirSync(dir).find((n) => n.endsWith('.json'))!), JSON.stringify(facts));

    // Alice has an album "BEACH" already; Bob shares his "Trip 2008" with her: only albums she owns are matched.
    const beach = data(alice, await alice.post(`${V1}/albums`, { album_name: 'BEACH' })).album_id as number;
    const bobsTrip = data(bob, await bob.post(`${V1}/albums`, { album_name: 'Trip 2008' })).album_id as number;
    data(bob, await bob.post(`${V1}/albums/${bobsTrip}/members`, { user_id: aliceId, role: 'contributor' }));

    // 1. Album names: a new album for a name she has none of (as given), hers of the same name in another case reused.
    const ref = { source: 'folder', id: 'lake' };
    const lakeDir = folderWith('gps/DSCN0025.jpg', { albumNames: ['Trip 2008', ' beach ', 'Trip 2008'], sourceRef: { ...ref, version: '1' } });
    const first = await run(lakeDir);
    assert.deepEqual(outcomes(first), ['created']);
    const lake = idOf(first);
    const trip = db.prepare('SELECT album_id FROM albums WHERE owner_id = ? AND album_name = ?').pluck().get(aliceId, 'Trip 2008') as number;
    assert.ok(trip && trip !== bobsTrip, 'a "Trip 2008" of her own was made');
    assert.deepEqual(await albumsOf(alice, lake), [`BEACH#${beach}`, `Trip 2008#${trip}`], 'in her own albums of those names, her "BEACH" reused');
    assert.deepEqual(await albumsOf(aliceB, lake), [`BEACH#${beach}`, `Trip 2008#${trip}`], 'the same in variant B');
    assert.equal(db.prepare('SELECT count(*) FROM album_assets WHERE album_id = ?').pluck().get(bobsTrip), 0, 'nothing put into the album shared with her');
    const row = (id: string) => db.prepare('SELECT * FROM assets WHERE asset_id = ?').get(id) as { state: string; taken_time: number | null; time_source: string | null; gps_latitude: number | null; gps_longitude: number | null; geohash7: string | null; updated_at: number };
    await until('processed', () => row(lake).state === 'ready');

    // 2. Google Takeout: the same photo in "Photos from 2005" and in two album folders: one asset, in both albums.
    const year = folderWith('exif/Nikon_D70.jpg', { sourceRef: { source: 'takeout', id: 'Photos from 2005/Nikon_D70.jpg' } });
    const camping = folderWith('exif/Nikon_D70.jpg', { albumNames: ['Camping'], sourceRef: { source: 'takeout', id: 'Camping/Nikon_D70.jpg' } });
    const friends = folderWith('exif/Nikon_D70.jpg', { albumNames: ['Friends', 'camping'], sourceRef: { source: 'takeout', id: 'Friends/Nikon_D70.jpg' } });
    const takeout = [await run(year), await run(camping), await run(friends)];
    assert.deepEqual(takeout.map(outcomes), [['created'], ['updated'], ['updated']], 'the album folders’ copies are duplicates whose album names are heard');
    const nikon = idOf(takeout[0]!);
    assert.deepEqual(takeout.map(idOf), [nikon, nikon, nikon], 'one asset');
    const named = (name: string) => db.prepare('SELECT album_id FROM albums WHERE owner_id = ? AND album_name = ?').pluck().get(aliceId, name) as number;
    assert.deepEqual(await albumsOf(alice, nikon), [`Camping#${named('Camping')}`, `Friends#${named('Friends')}`]);
    const takeoutAgain = [await run(year), await run(camping), await run(friends)];
    assert.deepEqual(takeoutAgain.map(outcomes), [['unchanged'], ['unchanged'], ['unchanged']], 'a re-run of the whole export brings nothing new');
    // Bob's import of the same export: his own asset and albums, none of hers touched.
    const bobs = idOf(await run(camping, bobId));
    assert.notEqual(bobs, nikon);
    assert.deepEqual((await albumsOf(bob, bobs)).map((a) => a.split('#')[0]), ['Camping']);
    assert.equal(db.prepare('SELECT count(*) FROM album_assets WHERE album_id = ?').pluck().get(named('Camping')), 1, 'her Camping holds only her photo');

    // 3. A person's removal from an album stands: the same facts again are unchanged and write nothing.
    data(alice, await alice.req('DELETE', `${V1}/albums/${beach}/assets/${lake}`));
    const factsBefore = db.prepare('SELECT updated_at FROM asset_source_facts WHERE asset_id = ?').pluck().get(lake);
    const rowBefore = row(lake).updated_at;
    assert.deepEqual(outcomes(await run(lakeDir)), ['unchanged']);
    assert.deepEqual(await albumsOf(alice, lake), [`Trip 2008#${trip}`], 'not put back into BEACH');
    assert.deepEqual([db.prepare('SELECT updated_at FROM asset_source_facts WHERE asset_id = ?').pluck().get(lake), row(lake).updated_at], [factsBefore, rowBefore], 'nothing written');

    // 4. A re-run whose record changed (a new version: a new capture time, a new place, a new album): the time and place
    //    move without reading the file again, the new album is added, BEACH (named before) is still not.
    const newTime = Date.UTC(2008, 9, 23, 9, 15, 0);
    sidecar(lakeDir, { albumNames: ['Trip 2008', 'beach', 'Tuscany'], capturedAt: { time: newTime, offsetMinutes: 120 }, gps: { latitude: 43.7696, longitude: 11.2558 }, sourceRef: { ...ref, version: '2' } });
    const jobsBefore = db.prepare(`SELECT count(*) FROM jobs WHERE kind = 'assets.process-asset'`).pluck().get();
    assert.deepEqual(outcomes(await run(lakeDir)), ['updated']);
    const moved = row(lake);
    assert.deepEqual([moved.taken_time, moved.time_source, moved.gps_latitude, moved.gps_longitude], [newTime, 'source', 43.7696, 11.2558], 'time and place from the new facts');
    assert.equal(moved.geohash7, geohashFields(43.7696, 11.2558).geohash7, 'the geohash follows the place');
    assert.equal(db.prepare(`SELECT count(*) FROM jobs WHERE kind = 'assets.process-asset'`).pluck().get(), jobsBefore, 'the file is not processed again');
    for (const c of [alice, aliceB]) {
      const view = data(c, await c.get(`${V1}/assets/${lake}`));
      assert.deepEqual([view.taken_time, view.time_source], [new Date(newTime).toISOString(), 'source'], `the client sees the new time (variant ${c.variant})`);
    }
    assert.deepEqual(await albumsOf(alice, lake), [`Trip 2008#${trip}`, `Tuscany#${named('Tuscany')}`], 'the new album added; BEACH not put back');
    assert.deepEqual(srv.container.assetChanges.listeners()['asset.sourced'], ['photo-events', 'albums', 'places'], 'photo events, albums and place names follow a source’s new facts');

    // 5. A person's time correction still wins after a re-run with a new time; taking it back gives the newest source time.
    data(alice, await alice.put(`${V1}/assets/${lake}/capture-time`, { local_time: '2010-07-04T12:00:00', offset_minutes: 0 }));
    const newest = Date.UTC(2008, 9, 24, 8, 0, 0);
    sidecar(lakeDir, { albumNames: ['Trip 2008'], capturedAt: { time: newest, offsetMinutes: 120 }, gps: { latitude: 43.7696, longitude: 11.2558 }, sourceRef: { ...ref, version: '3' } });
    assert.deepEqual(outcomes(await run(lakeDir)), ['updated']);
    assert.deepEqual([row(lake).taken_time, row(lake).time_source], [Date.UTC(2010, 6, 4, 12, 0, 0), 'user'], 'the person’s time wins');
    data(alice, await alice.req('DELETE', `${V1}/assets/${lake}/capture-time`));
    assert.deepEqual([row(lake).taken_time, row(lake).time_source], [newest, 'source'], 'taken back: the newest source time');
  } finally {
    await srv.stop({ removeData: true });
  }
});

test('re-runs by the rule’s merge (fact-precedence.ts): the same item’s new facts replace the kept ones, another item adds only its album names, each name once', () => {
  const v1: SourceFacts = { capturedAt: { time: 1, offsetMinutes: 0 }, favorite: true, albumNames: ['Trip'], sourceRef: { source: 's', id: 'a', version: '1' } };
  const first = mergeFacts(null, v1);
  assert.deepEqual([first.changed, first.oneShotChanged, first.newAlbumNames], [true, true, ['Trip']], 'nothing kept yet: all new');
  const reordered = JSON.parse(JSON.stringify({ sourceRef: v1.sourceRef, albumNames: [' trip '], favorite: true, capturedAt: v1.capturedAt })) as SourceFacts;
  assert.deepEqual([mergeFacts(v1, reordered).changed, mergeFacts(v1, reordered).newAlbumNames], [false, []], 'the same facts in another key order and name case: nothing new');
  const v2 = mergeFacts(v1, { ...v1, capturedAt: { time: 2, offsetMinutes: 0 }, albumNames: ['Beach'], sourceRef: { source: 's', id: 'a', version: '2' } });
  assert.deepEqual([v2.changed, v2.oneShotChanged, v2.newAlbumNames, v2.facts.capturedAt?.time, v2.facts.albumNames], [true, false, ['Beach'], 2, ['Trip', 'Beach']], 'a new version replaces; its names join the kept ones; the one-shot facts stay applied');
  assert.equal(mergeFacts(v1, { ...v1, favorite: false, sourceRef: { source: 's', id: 'a', version: '2' } }).oneShotChanged, true, 'a changed favourite is fresh again');
  const other = mergeFacts(v1, { capturedAt: { time: 9, offsetMinutes: 0 }, albumNames: ['Friends', '  ', 'friends'], sourceRef: { source: 's', id: 'b' } });
  assert.deepEqual([other.changed, other.oneShotChanged, other.newAlbumNames, other.facts.capturedAt?.time, other.facts.sourceRef?.id], [true, false, ['Friends'], 1, 'a'], 'another item: only its album names (blank and repeated ones dropped) join');
  assert.equal(mergeFacts(other.facts, { albumNames: ['FRIENDS'], sourceRef: { source: 's', id: 'b' } }).changed, false, 'a name kept is not new in another case');
});

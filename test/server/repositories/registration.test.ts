/**
 * Registering repositories over real HTTP: a folder with a `.hearth-repo` marker becomes a repository
 * (the marker's id is its id, nothing in it is moved or rewritten, only `.hearth/` is created);
 * folders without a marker, duplicates, copies and nested folders are refused with problems that say
 * why; paths are shown to administrators only; an offline repository is reported, never fatal.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { data, problem, V1 } from '../helpers/api.ts';
import { Client } from '../helpers/server.ts';
import {
  assetAt,
  assetsOf,
  copyIn,
  createRepo,
  makeRepoFolder,
  scanNow,
  useEnv,
  tempDir,
  waitFor,
  waitForScan,
  writeMarker,
  type Env,
} from './helpers.ts';

describe('Repositories: registration, visibility, reachability', () => {
  let env: Env;
  useEnv((e) => (env = e));

  test('the primary repository is listed, inside the storage root (root_id), idle and active', async () => {
    const r = await env.admin.get(`${V1}/repositories`);
    assert.equal(r.status, 200, r.text);
    const [primary, ...rest] = r.body.repositories;
    assert.equal(rest.length, 0);
    assert.equal(primary.is_primary, true);
    assert.equal(primary.role, 'primary');
    assert.equal(primary.reachability, 'active');
    assert.equal(primary.pause_reason, null);
    assert.ok(['idle', 'scanning'].includes(primary.activity));
    assert.equal(primary.path, path.join(env.ts.dataDir, 'storage', 'primary'));
    const rootMarker = JSON.parse(fs.readFileSync(path.join(env.ts.dataDir, 'storage', '.hearth-root'), 'utf8'));
    assert.equal(primary.root_id, rootMarker.id);
  });

  test('a folder holding a marker is registered in place: marker id, .hearth/ created, files untouched', async () => {
    const { dir, id } = makeRepoFolder({ 'holiday/bee.jpg': 'duplicates/bee.jpg', 'notes.txt': 'exif/labels.json' });
    const before = fs.readdirSync(dir).sort();
    const beeStat = fs.statSync(path.join(dir, 'holiday/bee.jpg'));
    const markerText = fs.readFileSync(path.join(dir, '.hearth-repo'), 'utf8');

    const repo = await createRepo(env, dir, 'Holiday pictures');
    assert.equal(repo.id, id);
    assert.equal(repo.name, 'Holiday pictures');
    assert.equal(repo.path, fs.realpathSync(dir));
    assert.equal(repo.is_primary, false);
    assert.equal(repo.role, 'regular');
    assert.equal(repo.root_id, null, 'a folder outside the storage root has no root');
    assert.equal(repo.reachability, 'active');

    assert.deepEqual(fs.readdirSync(dir).sort(), [...before, '.hearth'].sort(), 'only .hearth/ was added');
    assert.ok(fs.statSync(path.join(dir, '.hearth')).isDirectory());
    assert.equal(fs.readFileSync(path.join(dir, '.hearth-repo'), 'utf8'), markerText, 'the marker is never rewritten');

    // The first scan indexes the photo where it is.
    const scan = await waitForScan(env, id!);
    assert.equal(scan.status, 'completed');
    assert.equal(scan.added, 1);
    const asset = assetAt(env.ts, id!, 'holiday/bee.jpg');
    assert.ok(asset, 'the photo is in the catalog');
    assert.equal(asset.owner_id, env.adminId, 'owned by the first administrator');
    const after = fs.statSync(path.join(dir, 'holiday/bee.jpg'));
    assert.equal(after.mtimeMs, beeStat.mtimeMs);
    assert.equal(after.size, beeStat.size);
    assert.equal(after.ino, beeStat.ino, 'the file was not moved or rewritten');
  });

  test('a folder without a marker is refused with a 422 that explains how to make one', async () => {
    const { dir } = makeRepoFolder({ 'a.jpg': 'exif/Canon_40D.jpg' }, { marker: false });
    const r = await env.admin.post(`${V1}/repositories`, { name: 'No marker', path: dir });
    const p = problem(env.admin, r);
    assert.equal(r.status, 422);
    assert.equal(p.code, 'marker_missing');
    assert.match(p.detail, /\.hearth-repo/);
    assert.match(p.detail, /"format":"hearth-repository"/, 'the problem shows the marker content to create');
    assert.equal(p.errors?.[0]?.field, 'body.path');
    assert.ok(!fs.existsSync(path.join(dir, '.hearth')), 'nothing was created in a refused folder');
    assert.ok(!fs.existsSync(path.join(dir, '.hearth-repo')), 'Hearth does not write the marker itself');
  });

  test('invalid markers, relative paths, missing folders and files are refused (422)', async () => {
    const bad = tempDir();
    fs.writeFileSync(path.join(bad, '.hearth-repo'), '{"format":"something-else"}');
    let r = await env.admin.post(`${V1}/repositories`, { name: 'Bad', path: bad });
    assert.equal(r.status, 422);
    assert.equal(problem(env.admin, r).code, 'marker_invalid');

    fs.writeFileSync(path.join(bad, '.hearth-repo'), 'not json');
    r = await env.admin.post(`${V1}/repositories`, { name: 'Bad', path: bad });
    assert.equal(problem(env.admin, r).code, 'marker_invalid');

    r = await env.admin.post(`${V1}/repositories`, { name: 'Rel', path: 'photos/2024' });
    assert.equal(r.status, 422);
    assert.equal(problem(env.admin, r).errors?.[0]?.field, 'body.path');

    r = await env.admin.post(`${V1}/repositories`, { name: 'Gone', path: path.join(bad, 'does-not-exist') });
    assert.equal(problem(env.admin, r).code, 'folder_not_found');

    r = await env.admin.post(`${V1}/repositories`, { name: 'File', path: path.join(bad, '.hearth-repo') });
    assert.equal(problem(env.admin, r).code, 'not_a_folder');

    r = await env.admin.post(`${V1}/repositories`, { name: '', path: bad });
    assert.equal(r.status, 422);
    r = await env.admin.post(`${V1}/repositories`, { name: 'X', path: bad, extra: 1 });
    assert.equal(r.status, 422);
  });

  test('duplicates, copies and nested folders are refused (409)', async () => {
    const { dir, id } = makeRepoFolder({ 'x/a.jpg': 'exif/Canon_40D.jpg' });
    const repo = await createRepo(env, dir, 'Parent');
    assert.equal(repo.id, id);

    let r = await env.admin.post(`${V1}/repositories`, { name: 'Again', path: dir });
    assert.equal(r.status, 409);
    assert.equal(problem(env.admin, r).code, 'path_already_registered');

    // The same folder through a symbolic link is the same folder.
    const link = path.join(tempDir(), 'link');
    fs.symlinkSync(dir, link);
    r = await env.admin.post(`${V1}/repositories`, { name: 'Via link', path: link });
    assert.equal(problem(env.admin, r).code, 'path_already_registered');

    // A copy of the folder carries the same marker id.
    const copy = tempDir();
    fs.copyFileSync(path.join(dir, '.hearth-repo'), path.join(copy, '.hearth-repo'));
    r = await env.admin.post(`${V1}/repositories`, { name: 'Copy', path: copy });
    assert.equal(r.status, 409);
    assert.equal(problem(env.admin, r).code, 'repository_already_registered');

    // Inside another repository, even with its own marker.
    const inner = path.join(dir, 'x');
    writeMarker(inner);
    r = await env.admin.post(`${V1}/repositories`, { name: 'Inner', path: inner });
    assert.equal(r.status, 409);
    assert.equal(problem(env.admin, r).code, 'repository_nested');

    // Around another repository.
    const outer = tempDir();
    writeMarker(outer);
    const child = path.join(outer, 'child');
    fs.mkdirSync(child);
    const childId = writeMarker(child);
    assert.equal((await createRepo(env, child, 'Child')).id, childId);
    r = await env.admin.post(`${V1}/repositories`, { name: 'Outer', path: outer });
    assert.equal(r.status, 409);
    assert.equal(problem(env.admin, r).code, 'repository_nested');

    // Around the primary repository (the data folder).
    r = await env.admin.post(`${V1}/repositories`, { name: 'Data', path: env.ts.dataDir });
    assert.equal(r.status, 409);
  });

  test('members list repositories without paths, may not register one; reindex list is for administrators', async () => {
    const r = await env.member.get(`${V1}/repositories`);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.repositories.length >= 2);
    for (const repo of r.body.repositories) {
      assert.equal('path' in repo, false, 'members never see paths');
      assert.ok(!JSON.stringify(repo).includes(env.ts.dataDir) && !JSON.stringify(repo).includes('/tmp/'), JSON.stringify(repo));
    }
    const adminList = await env.admin.get(`${V1}/repositories`);
    assert.ok(adminList.body.repositories.every((x: { path?: string }) => typeof x.path === 'string'));

    const { dir } = makeRepoFolder();
    const c = await env.member.post(`${V1}/repositories`, { name: 'Mine', path: dir });
    assert.equal(c.status, 403);
    assert.equal((await env.member.get(`${V1}/repositories/indexable`)).status, 403);
    assert.equal((await new Client(env.ts.url).get(`${V1}/repositories`)).status, 401);

    const idx = await env.admin.get(`${V1}/repositories/indexable`);
    assert.equal(idx.status, 200);
    assert.ok(idx.body.repositories.length >= 2);
    assert.ok(idx.body.repositories.every((x: { reachability: string }) => x.reachability === 'active'));
  });

  test('variant B wraps the same answers in the envelope', async () => {
    const b = new Client(env.ts.url, 'B');
    b.token = env.admin.token;
    const r = await b.get(`${V1}/repositories`);
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(data(b, r).repositories));
    const missing = await b.post(`${V1}/repositories`, { name: 'N', path: tempDir() });
    assert.equal(missing.status, 422);
    assert.equal(missing.body.error, 'marker_missing');
  });

  test('a repository whose folder disappears is reported offline, keeps its assets, and comes back', async () => {
    const { dir, id } = makeRepoFolder({ 'a.jpg': 'exif/Canon_40D.jpg', 'b/c.jpg': 'duplicates/bee.jpg' });
    await createRepo(env, dir, 'Removable disk');
    await waitForScan(env, id!);
    assert.equal(assetsOf(env.ts, id!).filter((a) => !a.is_deleted).length, 2);

    // Unplug: the folder is gone (moved away, as when a disk is unmounted).
    const away = `${dir}-away`;
    fs.renameSync(dir, away);
    const offline = await waitFor('the repository reported offline', async () => {
      const list = await env.admin.get(`${V1}/repositories`);
      const repo = list.body.repositories.find((x: { id: string }) => x.id === id);
      return repo.reachability === 'offline' ? repo : null;
    });
    assert.equal(offline.pause_reason, 'offline');
    assert.match(offline.status_detail, /cannot be found/);
    assert.ok(!offline.status_detail.includes(dir), 'no path in the detail');
    const memberView = (await env.member.get(`${V1}/repositories`)).body.repositories.find((x: { id: string }) => x.id === id);
    assert.equal(memberView.reachability, 'offline');

    // A scan of an offline repository fails with the reason and removes nothing.
    const scan = await scanNow(env, id!);
    assert.equal(scan.status, 'failed');
    assert.match(scan.error, /cannot be found/);
    assert.equal(assetsOf(env.ts, id!).filter((a) => !a.is_deleted).length, 2, 'nothing left the catalog');
    assert.equal((await env.admin.get(`${V1}/repositories/indexable`)).body.repositories.some((x: { id: string }) => x.id === id), false);

    // The server keeps serving.
    assert.equal((await env.admin.get(`${V1}/auth/me`)).status, 200);

    // Plugged back in: the next check finds it, a scan reconciles, nothing was lost.
    fs.renameSync(away, dir);
    env.ts.container.repositories.tick();
    const back = (await env.admin.get(`${V1}/repositories`)).body.repositories.find((x: { id: string }) => x.id === id);
    assert.equal(back.reachability, 'active');
    assert.equal(back.pause_reason, null);
    const rescan = await waitForScan(env, id!, (s) => s.status === 'completed');
    assert.equal(rescan.deleted, 0);
    assert.equal(assetsOf(env.ts, id!).filter((a) => !a.is_deleted).length, 2);
  });

  test('a changed or removed marker puts the repository in error; nothing is deleted', async () => {
    const { dir, id } = makeRepoFolder({ 'a.jpg': 'exif/Canon_40D.jpg' });
    await createRepo(env, dir, 'Marker check');
    await waitForScan(env, id!);
    const original = fs.readFileSync(path.join(dir, '.hearth-repo'), 'utf8');

    writeMarker(dir, crypto.randomUUID(), 'Someone else');
    env.ts.container.repositories.checkReachability(id!);
    let repo = (await env.admin.get(`${V1}/repositories`)).body.repositories.find((x: { id: string }) => x.id === id);
    assert.equal(repo.reachability, 'error');
    assert.equal(repo.pause_reason, 'marker_mismatch');

    fs.rmSync(path.join(dir, '.hearth-repo'));
    fs.rmSync(path.join(dir, 'a.jpg'));
    const scan = await scanNow(env, id!);
    assert.equal(scan.status, 'failed');
    repo = (await env.admin.get(`${V1}/repositories`)).body.repositories.find((x: { id: string }) => x.id === id);
    assert.equal(repo.pause_reason, 'marker_missing');
    assert.equal(assetAt(env.ts, id!, 'a.jpg')?.is_deleted, 0, 'a repository in error never loses assets');

    fs.writeFileSync(path.join(dir, '.hearth-repo'), original);
    copyIn(dir, 'a.jpg', 'exif/Canon_40D.jpg');
    env.ts.container.repositories.checkReachability(id!);
    repo = (await env.admin.get(`${V1}/repositories`)).body.repositories.find((x: { id: string }) => x.id === id);
    assert.equal(repo.reachability, 'active');
  });
});

/**
 * Scans as durable jobs over real HTTP: counts (seen, added, updated, moved, deleted, skipped), one
 * scan per repository at a time, members may scan and read counts but never paths, an incomplete
 * walk deletes nothing, and the periodic scheduler catches what the watcher missed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { data, V1 } from '../helpers/api.ts';
import { startServer } from '../helpers/server.ts';
import {
  assetAt,
  assetsOf,
  cleanupTemps,
  copyIn,
  createRepo,
  makeRepoFolder,
  scanNow,
  startEnv,
  useEnv,
  waitFor,
  waitForScan,
  type Env,
} from './helpers.ts';

describe('Repositories: scans', () => {
  let env: Env;
  useEnv((e) => (env = e));

  test('scan counts: new, unchanged, changed, moved, deleted; hidden, .hearth/ and partial files are not seen', async () => {
    const { dir, id } = makeRepoFolder({
      'a.jpg': 'exif/Canon_40D.jpg',
      '2019/b.jpg': 'duplicates/bee.jpg',
      '2019/deep/c.jpg': 'exif/Nikon_D70.jpg',
      'readme.txt': 'exif/labels.json',
      '.hidden/x.jpg': 'exif/Pentax_K10D.jpg',
      '.thumb.jpg': 'exif/Pentax_K10D.jpg',
      'incoming.jpg.part': 'exif/Pentax_K10D.jpg',
      'download.jpg.crdownload': 'exif/Pentax_K10D.jpg',
      '@eaDir/a.jpg/SYNOPHOTO_THUMB_M.jpg': 'exif/Pentax_K10D.jpg',
    });
    // Stop watching first so that only scans touch this repository in this test.
    const repo = await createRepo(env, dir, 'Counts');
    await env.ts.container.repositories.stopWatching(id!);
    fs.mkdirSync(path.join(dir, '.hearth', 'staging'), { recursive: true });
    fs.copyFileSync(path.join(dir, 'a.jpg'), path.join(dir, '.hearth', 'staging', 'upload.jpg'));

    const first = await waitForScan(env, repo.id);
    assert.equal(first.status, 'completed', JSON.stringify(first));
    assert.equal(first.mode, 'manual');
    assert.equal(first.complete_walk, true);
    assert.equal(first.files_seen, 4, 'a.jpg, b.jpg, c.jpg and readme.txt');
    assert.equal(first.added, 3);
    assert.equal(first.skipped, 1, 'the text file is not media');
    assert.equal(first.failed, 0);
    assert.equal(first.deleted, 0);
    assert.equal(first.progress, null);
    assert.ok(first.started_at && first.finished_at);
    assert.deepEqual(
      assetsOf(env.ts, id!).map((a) => a.storage_path),
      ['2019/b.jpg', '2019/deep/c.jpg', 'a.jpg'],
    );

    // Nothing changed: everything skipped.
    const second = await scanNow(env, id!);
    assert.deepEqual(
      { seen: second.files_seen, added: second.added, updated: second.updated, skipped: second.skipped },
      { seen: 4, added: 0, updated: 0, skipped: 4 },
    );

    // Change one file, move one, delete one, add one.
    const bId = assetAt(env.ts, id!, '2019/b.jpg')!.asset_id;
    const cId = assetAt(env.ts, id!, '2019/deep/c.jpg')!.asset_id;
    const aId = assetAt(env.ts, id!, 'a.jpg')!.asset_id;
    copyIn(dir, 'a.jpg', 'exif/Olympus_E-P3.jpg');
    fs.mkdirSync(path.join(dir, '2020'));
    fs.renameSync(path.join(dir, '2019/b.jpg'), path.join(dir, '2020/b-renamed.jpg'));
    fs.rmSync(path.join(dir, '2019/deep/c.jpg'));
    copyIn(dir, 'new.jpg', 'exif/Pentax_K10D.jpg');
    const third = await scanNow(env, id!);
    assert.equal(third.status, 'completed');
    assert.equal(third.complete_walk, true);
    assert.equal(third.files_seen, 4);
    assert.equal(third.added, 1, 'new.jpg');
    assert.equal(third.updated, 1, 'a.jpg');
    assert.equal(third.moved, 1, 'b.jpg → 2020/b-renamed.jpg');
    assert.equal(third.deleted, 1, 'c.jpg');
    assert.equal(third.skipped, 1, 'readme.txt');

    assert.equal(assetAt(env.ts, id!, 'a.jpg')!.asset_id, aId, 'a changed file keeps its asset');
    assert.equal(assetAt(env.ts, id!, '2020/b-renamed.jpg')!.asset_id, bId, 'a moved file keeps its asset id');
    assert.equal(assetAt(env.ts, id!, '2019/b.jpg'), undefined);
    const c = env.ts.container.db.prepare('SELECT is_deleted FROM assets WHERE asset_id = ?').get(cId) as { is_deleted: number };
    assert.equal(c.is_deleted, 1, 'a deleted file moves its asset to the trash');

    // The scans list, newest first, paged.
    const list = await env.admin.get(`${V1}/repositories/${id}/scans?limit=2`);
    assert.equal(list.status, 200);
    assert.equal(list.body.total, 3);
    assert.equal(list.body.limit, 2);
    assert.equal(list.body.offset, 0);
    assert.deepEqual(list.body.scans.map((s: { scan_id: string }) => s.scan_id), [third.scan_id, second.scan_id]);
    const page2 = await env.admin.get(`${V1}/repositories/${id}/scans?limit=2&offset=2`);
    assert.deepEqual(page2.body.scans.map((s: { scan_id: string }) => s.scan_id), [first.scan_id]);
    assert.equal((await env.admin.get(`${V1}/repositories/${id}/scans?limit=0`)).status, 422);
  });

  test('one scan per repository: asking again while one runs returns it (200, created false)', async () => {
    const { dir, id } = makeRepoFolder({ 'a.jpg': 'exif/Canon_40D.jpg' });
    await createRepo(env, dir, 'Once');
    await waitForScan(env, id!);
    const repos = env.ts.container.repositories;
    // Hold the next walk until we let it go, so the scan stays running.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    repos.walkFs = {
      readDir: async (abs) => {
        await gate;
        return fs.promises.readdir(abs, { withFileTypes: true });
      },
    };
    try {
      const r1 = await env.admin.post(`${V1}/repositories/${id}/scans`, {});
      assert.equal(r1.status, 202, r1.text);
      assert.equal(r1.body.created, true);
      assert.equal(r1.body.scan.status, 'queued');
      await waitFor('the scan running', async () => (await env.admin.get(`${V1}/repositories/${id}/scans/latest`)).body.scan.status === 'running');
      const listed = (await env.member.get(`${V1}/repositories`)).body.repositories.find((x: { id: string }) => x.id === id);
      assert.equal(listed.activity, 'scanning');

      const r2 = await env.admin.post(`${V1}/repositories/${id}/scans`, { force: true });
      assert.equal(r2.status, 200, r2.text);
      assert.equal(r2.body.created, false);
      assert.equal(r2.body.scan.scan_id, r1.body.scan.scan_id, 'the scan already running is returned');
      const r3 = await env.member.post(`${V1}/repositories/${id}/scans`);
      assert.equal(r3.status, 200);
      assert.equal(r3.body.scan.scan_id, r1.body.scan.scan_id);
      // And the scheduler does not stack another one.
      repos.tick(Date.now() + 365 * 86_400_000);
      const pending = env.ts.container.db
        .prepare("SELECT count(*) AS n FROM repository_scans WHERE repository_id = ? AND status IN ('queued', 'running')")
        .get(id) as { n: number };
      assert.equal(pending.n, 1);
    } finally {
      release();
      repos.walkFs = undefined;
    }
    const done = await waitForScan(env, id!);
    assert.equal(done.status, 'completed');
    const listed = (await env.admin.get(`${V1}/repositories`)).body.repositories.find((x: { id: string }) => x.id === id);
    assert.equal(listed.activity, 'idle');
  });

  test('members may scan and read scan counts, but never see paths; unknown repositories are 404', async () => {
    const { dir, id } = makeRepoFolder({ 'a.jpg': 'exif/Canon_40D.jpg' });
    await createRepo(env, dir, 'Shared');
    await waitForScan(env, id!);
    const r = await env.member.post(`${V1}/repositories/${id}/scans`);
    assert.ok(r.status === 202 || r.status === 200, r.text);
    const scan = data(env.member, r).scan;
    assert.equal(scan.repository_id, id);
    const done = await waitFor('the member-requested scan', async () => {
      const l = await env.member.get(`${V1}/repositories/${id}/scans/latest`);
      assert.equal(l.status, 200);
      return l.body.scan.scan_id === scan.scan_id && l.body.scan.status === 'completed' ? l.body.scan : null;
    });
    assert.equal(done.files_seen, 1);
    const list = await env.member.get(`${V1}/repositories/${id}/scans`);
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(dir), 'no path in scan answers for members');
    const none = '00000000-0000-4000-8000-000000000000';
    assert.equal((await env.member.post(`${V1}/repositories/${none}/scans`, {})).status, 404);
    assert.equal((await env.member.get(`${V1}/repositories/${none}/scans`)).status, 404);
    assert.equal((await env.member.get(`${V1}/repositories/${none}/scans/latest`)).status, 404);
    assert.equal((await env.member.get(`${V1}/repositories/not-a-uuid/scans`)).status, 422);
  });

  test('a walk that cannot read a folder deletes nothing (complete_walk false) and says where', async () => {
    const { dir, id } = makeRepoFolder({ 'a.jpg': 'exif/Canon_40D.jpg', 'locked/b.jpg': 'duplicates/bee.jpg', 'open/c.jpg': 'exif/Nikon_D70.jpg' });
    await createRepo(env, dir, 'Locked');
    await env.ts.container.repositories.stopWatching(id!);
    const first = await waitForScan(env, id!);
    assert.equal(first.added, 3);

    // Delete a file for real, then make a folder unreadable. chmod 000 stops a normal user; the
    // tests may run as root, whom it does not stop: then the walk's folder reading fails instead.
    fs.rmSync(path.join(dir, 'open/c.jpg'));
    const locked = path.join(dir, 'locked');
    fs.chmodSync(locked, 0o000);
    let rootReads = false;
    try {
      fs.readdirSync(locked);
      rootReads = true;
    } catch {
      /* chmod bites */
    }
    const repos = env.ts.container.repositories;
    if (rootReads) {
      repos.walkFs = {
        readDir: async (abs) => {
          if (abs === locked) throw Object.assign(new Error(`EACCES: permission denied, scandir '${abs}'`), { code: 'EACCES' });
          return fs.promises.readdir(abs, { withFileTypes: true });
        },
      };
    }
    try {
      const scan = await scanNow(env, id!);
      assert.equal(scan.status, 'completed');
      assert.equal(scan.complete_walk, false);
      assert.equal(scan.deleted, 0, 'an incomplete walk deletes nothing');
      assert.match(scan.error, /incomplete/);
      assert.match(scan.error, /'locked' \(permission denied\)/);
      assert.ok(!scan.error.includes(dir), 'the error names repository-relative paths only');
      assert.equal(assetAt(env.ts, id!, 'locked/b.jpg')!.is_deleted, 0, 'files in the unreadable folder stay');
      assert.equal(assetAt(env.ts, id!, 'open/c.jpg')!.is_deleted, 0, 'even a file really gone stays until a complete walk');
    } finally {
      repos.walkFs = undefined;
      fs.chmodSync(locked, 0o755);
    }
    // Readable again: the next complete walk catches up.
    const after = await scanNow(env, id!);
    assert.equal(after.complete_walk, true);
    assert.equal(after.deleted, 1);
    assert.equal(assetAt(env.ts, id!, 'open/c.jpg')!.is_deleted, 1);
    assert.equal(assetAt(env.ts, id!, 'locked/b.jpg')!.is_deleted, 0);
  });

  test('the periodic scan catches a file added while watching was off, without stacking scans', async () => {
    const { dir, id } = makeRepoFolder({ 'a.jpg': 'exif/Canon_40D.jpg' });
    await createRepo(env, dir, 'Periodic');
    await waitForScan(env, id!);
    const repos = env.ts.container.repositories;
    await repos.stopWatching(id!);
    assert.equal(repos.isWatching(id!), false);

    copyIn(dir, 'later.jpg', 'duplicates/bee.jpg');
    assert.equal(assetAt(env.ts, id!, 'later.jpg'), undefined, 'nobody indexed it');

    // Not due yet: the tick queues nothing.
    const count = () => (env.ts.container.db.prepare('SELECT count(*) AS n FROM repository_scans WHERE repository_id = ?').get(id) as { n: number }).n;
    const before = count();
    repos.tick();
    assert.equal(count(), before, 'no scan before the interval has passed');

    // The interval is library.scan_interval_seconds after the last scan finished.
    const s = await env.admin.patch(`${V1}/settings/system`, { library: { scan_interval_seconds: 30 } });
    assert.equal(s.status, 200, s.text);
    repos.tick(Date.now() + 31_000);
    repos.tick(Date.now() + 31_000); // a second tick while one is queued adds nothing
    assert.equal(count(), before + 1, 'one periodic scan, not two');
    const scan = await waitForScan(env, id!, (x) => x.mode === 'periodic');
    assert.equal(scan.status, 'completed');
    assert.equal(scan.added, 1);
    assert.ok(assetAt(env.ts, id!, 'later.jpg'));
    await repos.startWatching(id!);
    assert.equal(repos.isWatching(id!), true);
  });

  test('scans run as jobs of the scans queue, visible to administrators', async () => {
    const r = await env.admin.get(`${V1}/jobs?kind=repositories.scan-repository&limit=5`);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.jobs.length > 0);
    assert.equal(r.body.jobs[0].queue, 'scans');
  });
});

describe('Repositories: scans at start', () => {
  after(() => cleanupTemps());

  test('a file added while the server was stopped is indexed by the startup scan', async () => {
    const env = await startEnv();
    const dataDir = env.ts.dataDir;
    const { dir, id } = makeRepoFolder({ 'a.jpg': 'exif/Canon_40D.jpg' });
    await createRepo(env, dir, 'Restart');
    await waitForScan(env, id!);
    await env.ts.stop();

    copyIn(dir, 'while-stopped.jpg', 'duplicates/bee.jpg');
    fs.rmSync(path.join(dir, 'a.jpg'));
    const env2 = { ts: await startServer({ dataDir }) };
    try {
      await waitFor('the startup scan', () => {
        const row = env2.ts.container.db
          .prepare("SELECT * FROM repository_scans WHERE repository_id = ? AND mode = 'startup' AND status = 'completed'")
          .get(id) as { added: number; deleted: number } | undefined;
        return row;
      });
      const row = env2.ts.container.db
        .prepare("SELECT * FROM repository_scans WHERE repository_id = ? AND mode = 'startup'")
        .get(id) as { added: number; deleted: number };
      assert.equal(row.added, 1);
      assert.equal(row.deleted, 1);
      assert.ok(assetAt(env2.ts, id!, 'while-stopped.jpg'));
      assert.equal(assetAt(env2.ts, id!, 'a.jpg')!.is_deleted, 1);
    } finally {
      await env2.ts.stop({ removeData: true });
    }
  });

  test('a repository whose folder is gone at start is reported offline; the server starts and serves', async () => {
    const env = await startEnv();
    const dataDir = env.ts.dataDir;
    const { dir, id } = makeRepoFolder({ 'a.jpg': 'exif/Canon_40D.jpg' });
    await createRepo(env, dir, 'Unplugged');
    await waitForScan(env, id!);
    await env.ts.stop();

    fs.renameSync(dir, `${dir}-unplugged`);
    const ts = await startServer({ dataDir });
    try {
      const row = ts.container.repositories.byId(id!)!;
      assert.equal(row.status, 'offline');
      assert.equal(ts.container.repositories.isWatching(id!), false);
      const scans = ts.container.db.prepare("SELECT count(*) AS n FROM repository_scans WHERE repository_id = ? AND mode = 'startup'").get(id) as { n: number };
      assert.equal(scans.n, 0, 'no startup scan for an offline repository');
      assert.equal(assetAt(ts, id!, 'a.jpg')!.is_deleted, 0);
      const health = await fetch(`${ts.url}/api/v1/health`);
      assert.ok(health.status < 500);

      // Back: the scheduler notices, watches and scans it again.
      fs.renameSync(`${dir}-unplugged`, dir);
      ts.container.repositories.tick();
      assert.equal(ts.container.repositories.byId(id!)!.status, 'active');
      assert.equal(ts.container.repositories.isWatching(id!), true);
      await waitFor('the reconciling scan', () =>
        ts.container.db.prepare("SELECT 1 FROM repository_scans WHERE repository_id = ? AND mode = 'periodic' AND status = 'completed'").get(id),
      );
    } finally {
      await ts.stop({ removeData: true });
    }
  });
});

/**
 * Folder watching over a real server: files added, modified, renamed, moved between folders and
 * deleted in a watched repository reach the catalog within seconds (polled with a deadline, no
 * fixed sleeps); a rename keeps the asset id; hidden files, `.hearth/` and partial downloads are
 * ignored until they become real files.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assetAt, assetsOf, cleanupTemps, copyIn, corpusFile, createRepo, makeRepoFolder, startEnv, waitFor, waitForScan, type Env } from './helpers.ts';

const WITHIN = 15_000;

describe('Repositories: folder watching', () => {
  let env: Env;
  let dir: string;
  let id: string;
  before(async () => {
    env = await startEnv();
    const made = makeRepoFolder({ 'existing.jpg': 'exif/Canon_40D.jpg' });
    dir = made.dir;
    id = made.id!;
    await createRepo(env, dir, 'Watched');
    await waitForScan(env, id);
    await env.ts.container.repositories.watchersReady();
    assert.equal(env.ts.container.repositories.isWatching(id), true);
  });
  after(async () => {
    await env.ts.stop({ removeData: true });
    cleanupTemps();
  });

  const live = (rel: string) => {
    const a = assetAt(env.ts, id, rel);
    return a && !a.is_deleted ? a : undefined;
  };

  test('a new file is indexed within seconds, owned by the default owner', async () => {
    copyIn(dir, 'new/bee.jpg', 'duplicates/bee.jpg');
    const asset = await waitFor('new/bee.jpg in the catalog', () => live('new/bee.jpg'), WITHIN);
    assert.equal(asset.owner_id, env.adminId);
    assert.equal(asset.file_size, fs.statSync(corpusFile('duplicates/bee.jpg')).size);
    assert.match(asset.hash ?? '', /^[0-9a-f]{64}$/);
  });

  test('a modified file is re-indexed, keeping its asset', async () => {
    copyIn(dir, 'edit.jpg', 'exif/Nikon_D70.jpg');
    const before = await waitFor('edit.jpg indexed', () => live('edit.jpg'), WITHIN);
    copyIn(dir, 'edit.jpg', 'exif/Olympus_E-P3.jpg');
    const newSize = fs.statSync(corpusFile('exif/Olympus_E-P3.jpg')).size;
    const after = await waitFor('edit.jpg re-indexed', () => {
      const a = live('edit.jpg');
      return a && a.file_size === newSize && a.hash !== before.hash ? a : undefined;
    }, WITHIN);
    assert.equal(after.asset_id, before.asset_id);
  });

  test('a renamed file keeps its asset id (a move, not a delete and an add)', async () => {
    copyIn(dir, 'rename-me.jpg', 'exif/Pentax_K10D.jpg');
    const before = await waitFor('rename-me.jpg indexed', () => live('rename-me.jpg'), WITHIN);
    fs.renameSync(path.join(dir, 'rename-me.jpg'), path.join(dir, 'renamed.jpg'));
    const after = await waitFor('renamed.jpg in the catalog', () => live('renamed.jpg'), WITHIN);
    assert.equal(after.asset_id, before.asset_id, 'the asset id survives the rename');
    assert.equal(assetAt(env.ts, id, 'rename-me.jpg'), undefined, 'the old path is gone from the catalog');
    const count = assetsOf(env.ts, id).filter((a) => a.hash === before.hash).length;
    assert.equal(count, 1, 'no second asset for the same file');
  });

  test('a folder moved within the repository keeps every asset id', async () => {
    copyIn(dir, 'trip/one.jpg', 'exif/Sony_DSLR-A200.jpg');
    copyIn(dir, 'trip/sub/two.jpg', 'exif/Ricoh_Caplio_RR330.jpg');
    const one = await waitFor('trip/one.jpg', () => live('trip/one.jpg'), WITHIN);
    const two = await waitFor('trip/sub/two.jpg', () => live('trip/sub/two.jpg'), WITHIN);
    fs.mkdirSync(path.join(dir, 'archive'));
    fs.renameSync(path.join(dir, 'trip'), path.join(dir, 'archive', 'trip-2019'));
    const one2 = await waitFor('archive/trip-2019/one.jpg', () => live('archive/trip-2019/one.jpg'), WITHIN);
    const two2 = await waitFor('archive/trip-2019/sub/two.jpg', () => live('archive/trip-2019/sub/two.jpg'), WITHIN);
    assert.equal(one2.asset_id, one.asset_id);
    assert.equal(two2.asset_id, two.asset_id);
  });

  test('a deleted file leaves the catalog (to the trash) within seconds', async () => {
    copyIn(dir, 'delete-me.jpg', 'exif/Casio_EX-M2.jpg');
    const before = await waitFor('delete-me.jpg indexed', () => live('delete-me.jpg'), WITHIN);
    fs.rmSync(path.join(dir, 'delete-me.jpg'));
    await waitFor('delete-me.jpg marked missing', () => assetAt(env.ts, id, 'delete-me.jpg')?.is_deleted === 1, WITHIN);
    const row = env.ts.container.db.prepare('SELECT is_deleted, deleted_at FROM assets WHERE asset_id = ?').get(before.asset_id) as {
      is_deleted: number;
      deleted_at: number | null;
    };
    assert.equal(row.is_deleted, 1);
    assert.ok(row.deleted_at);
  });

  test('partial downloads, hidden files and .hearth/ are ignored; the finished download is indexed', async () => {
    const part = path.join(dir, 'download.jpg.crdownload');
    fs.copyFileSync(corpusFile('exif/Fujifilm_FinePix_E500.jpg'), part);
    copyIn(dir, '.hidden.jpg', 'exif/Konica_Minolta_DiMAGE_Z3.jpg');
    copyIn(dir, '.hearth/staging/upload.jpg', 'exif/Nikon_COOLPIX_P1.jpg');
    // The browser finishes the download: a rename to the real name.
    fs.renameSync(part, path.join(dir, 'download.jpg'));
    await waitFor('download.jpg indexed', () => live('download.jpg'), WITHIN);
    await env.ts.container.repositories.whenSettled(id);
    const paths = assetsOf(env.ts, id).map((a) => a.storage_path);
    assert.ok(!paths.some((p) => p.includes('crdownload') || p.startsWith('.') || p.includes('/.')), paths.join(', '));
  });

  test('a file the door commits here (an import) is catalogued once, by the door: the watcher passes over its add, not over a person\'s file beside it', async () => {
    const door = env.ts.container.door;
    const watched: string[] = [];
    const admit = door.admit.bind(door);
    door.admit = (a) => {
      if (a.source === 'watch' && a.file.kind === 'in-place') watched.push(a.file.relPath);
      return admit(a);
    };
    try {
      const repo = { repository_id: id, path: dir };
      const staging = path.join(dir, '.hearth', 'staging', 'imports', 'watch-test');
      fs.mkdirSync(staging, { recursive: true });
      const staged = path.join(staging, 'item');
      fs.copyFileSync(corpusFile('exif/Samsung_Digimax_i50_MP3.jpg'), staged);
      const size = fs.statSync(staged).size;
      const { hash } = await env.ts.container.intake.hashFile(staged, size);
      const out = await door.admit({
        source: 'import',
        ownerId: env.adminId,
        repository: repo,
        file: { kind: 'staged', path: staged, hash, size, head: fs.readFileSync(corpusFile('exif/Samsung_Digimax_i50_MP3.jpg')).subarray(0, 4096) },
        facts: { originalName: 'from-the-cloud.jpg' },
      });
      assert.equal(out.outcome, 'created');
      const committed = (out as { relPath: string }).relPath;
      assert.ok(fs.existsSync(path.join(dir, committed)), committed);
      // A person's file written now is seen and indexed by the watcher, as always; by the time it is, the
      // watcher has had the commit's event too (both are in the same folder tree, the person's came after).
      copyIn(dir, 'by-hand.jpg', 'exif/Sony_DSLR-A200.jpg');
      await waitFor('by-hand.jpg indexed by the watcher', () => live('by-hand.jpg'), WITHIN);
      await env.ts.container.repositories.whenSettled(id);
      assert.ok(watched.includes('by-hand.jpg'), watched.join(', '));
      assert.deepEqual(watched.filter((p) => p === committed), [], 'the watcher did not admit the committed file again');
      assert.equal(assetsOf(env.ts, id).filter((a) => a.storage_path === committed).length, 1);

      // The same file changed afterwards by someone else is the watcher's again: the note was for the commit only.
      fs.copyFileSync(corpusFile('exif/Canon_40D.jpg'), path.join(dir, committed));
      const changedSize = fs.statSync(corpusFile('exif/Canon_40D.jpg')).size;
      await waitFor('the committed file re-indexed after a change', () => (live(committed)?.file_size === changedSize ? true : undefined), WITHIN);
      assert.ok(watched.includes(committed));
    } finally {
      door.admit = admit;
    }
  });

  test('watchers stop when the server closes', async () => {
    const { ts } = await startEnv();
    const repos = ts.container.repositories;
    await repos.watchersReady();
    const primary = repos.primary()!;
    assert.equal(repos.isWatching(primary.repository_id), true);
    await ts.stop({ removeData: true });
    assert.equal(repos.isWatching(primary.repository_id), false);
  });
});

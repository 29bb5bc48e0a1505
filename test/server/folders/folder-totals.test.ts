/**
 * Folder summaries stay exact while the catalog changes under them. The server keeps each folder's
 * counts and only counts again the folders the change log names (features/folders/folder-totals.ts);
 * this walks a few hundred random changes of every kind that a summary depends on (new files,
 * deletions, Trash and restore, moves between folders and repositories, type, state and time
 * changes, a change of owner) and after each batch compares every listing and summary over HTTP
 * with a fresh count of the whole catalog.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FolderTotals } from '../../../server/src/features/folders/folder-totals.ts';
import { CatalogTracker } from '../../../server/src/features/browse/catalog-tracker.ts';
import { CacheRegistry } from '../../../server/src/platform/cache/kept-cache.ts';

/** Folder totals counted with one query per repository when first asked (no slices). */
class CountAtOnce extends FolderTotals {
  override prepare(): Promise<void> {
    return Promise.resolve();
  }
}
import { FoldersService } from '../../../server/src/features/folders/folders.service.ts';
import type { Actor } from '../../../server/src/platform/http/context.ts';
import { V1, data } from '../helpers/api.ts';
import { insertAsset, setup, type World } from '../statistics/catalog.ts';

const FOLDERS = ['', 'a', 'a/b', 'a/b/c', 'a-b', 'a0', '2020/01/zoo', '2020/02', '2021/07/beach day', 'Über'];

function prng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

describe('folder summaries follow every change', { timeout: 300_000 }, () => {
  let w: World;
  before(async () => {
    w = await setup();
    // Rows moved into the primary repository have no file on disk: a scan or the watcher would mark
    // them missing (into the Trash) while the test compares. The catalog is the test's alone.
    await w.srv.container.repositories.stop();
    await w.srv.container.jobRunner.whenIdle();
  });
  after(() => w.srv.stop({ removeData: true }));

  test('after each batch of random changes, every answer equals a fresh count', async () => {
    const db = w.srv.container.db;
    const rnd = prng(42);
    const repos = [w.primary.repository_id, w.synth.repository_id];
    const owners = [w.aliceId, w.bobId];
    const pathIn = (folder: string, i: number) => (folder === '' ? `f${i}.jpg` : `${folder}/f${i}.jpg`);
    let made = 0;
    const newAsset = () =>
      insertAsset(w, {
        owner: owners[rnd(4) === 0 ? 1 : 0]!,
        repo: repos[rnd(3) === 0 ? 1 : 0]!,
        path: pathIn(FOLDERS[rnd(FOLDERS.length)]!, made++),
        type: (['PHOTO', 'PHOTO', 'VIDEO', 'AUDIO'] as const)[rnd(4)],
        state: rnd(5) === 0 ? 'pending' : 'ready',
        taken: rnd(4) === 0 ? null : Date.UTC(2010 + rnd(15), rnd(12), 1 + rnd(28)),
      });
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push(newAsset());

    const pick = () => ids[rnd(ids.length)]!;
    const changes: (() => void)[] = [
      () => ids.push(newAsset()),
      () => {
        const id = ids.splice(rnd(ids.length), 1)[0]!;
        db.prepare('DELETE FROM assets WHERE asset_id = ?').run(id);
      },
      () => db.prepare('UPDATE assets SET is_deleted = 1 - is_deleted, deleted_at = ? WHERE asset_id = ?').run(Date.now(), pick()),
      () => db.prepare('UPDATE assets SET storage_path = ? WHERE asset_id = ?').run(pathIn(FOLDERS[rnd(FOLDERS.length)]!, made++), pick()),
      () => db.prepare('UPDATE assets SET repository_id = ? WHERE asset_id = ?').run(repos[rnd(2)]!, pick()),
      () => db.prepare("UPDATE assets SET type = ?, mime_type = 'application/octet-stream' WHERE asset_id = ?").run(['PHOTO', 'VIDEO', 'AUDIO'][rnd(3)]!, pick()),
      () => db.prepare('UPDATE assets SET state = ? WHERE asset_id = ?').run(['ready', 'pending', 'processing'][rnd(3)]!, pick()),
      () => db.prepare('UPDATE assets SET taken_time = ? WHERE asset_id = ?').run(rnd(3) === 0 ? null : Date.UTC(2005 + rnd(20), rnd(12), 1 + rnd(28)), pick()),
      () => db.prepare('UPDATE assets SET owner_id = ? WHERE asset_id = ?').run(owners[rnd(2)]!, pick()),
      // Changes a summary does not depend on: nothing to count again, answers stay the same.
      () => db.prepare('UPDATE assets SET liked = 1 - liked WHERE asset_id = ?').run(pick()),
    ];

    const actors: [Actor, typeof w.alice][] = [
      [{ userId: w.aliceId, username: 'alice', role: 'admin', sessionId: 's', via: 'bearer' }, w.alice],
      [{ userId: w.bobId, username: 'bob', role: 'user', sessionId: 's', via: 'bearer' }, w.bob],
    ];
    let compared = 0;
    for (let batch = 0; batch < 30; batch++) {
      const n = 1 + rnd(12);
      for (let i = 0; i < n; i++) changes[rnd(changes.length)]!();
      // A service with nothing kept counts the whole catalog again: the reference answer.
      // (It counts each repository with one grouped query, not in slices as the server does.)
      const fresh = new FoldersService(db, new CountAtOnce(db, new CatalogTracker(db), new CacheRegistry().create('reference', 1 << 30, () => 0)), w.srv.container.repositories);
      for (const [actor, client] of actors) {
        for (const parent of ['', 'a', 'a/b', '2020', '2021/07']) {
          for (const repo of [...repos, undefined]) {
            const query = new URLSearchParams({ path: parent, ...(repo ? { repository_id: repo } : {}) });
            const r = await client.get(`${V1}/assets/folders?${query}`);
            assert.equal(r.status, 200, r.text);
            assert.deepEqual(data(client, r), await fresh.list(actor, { repository_id: repo, path: parent }), `batch ${batch}: list ${query}`);
            compared++;
          }
        }
        for (const folder of FOLDERS) {
          const query = new URLSearchParams({ repository_id: repos[0]!, path: folder });
          const r = await client.get(`${V1}/assets/folders/summary?${query}`);
          let expected: unknown;
          try {
            expected = await fresh.get(actor, { repository_id: repos[0]!, path: folder });
          } catch {
            expected = 404;
          }
          assert.deepEqual(r.status === 404 ? 404 : data(client, r), expected, `batch ${batch}: summary ${query}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 1000);
  });
});

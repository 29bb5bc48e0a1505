/**
 * listFolders / getFolder over HTTP: folders derived from where real corpus files sit in the
 * primary repository (recursive counts per type, covers, time spans), ownership (bob never sees
 * alice's folders, admins get no exception), the Trash, path validation, prefix siblings (`a` vs
 * `a-b` vs `a.x`), non-ASCII names, several repositories, and answers that follow catalog changes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '../helpers/server.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { insertAsset, setup, utc, type World } from '../statistics/catalog.ts';
import { RECIPES } from '../../template/recipes.ts';

type Summary = {
  asset_count: number;
  audio_count: number;
  photo_count: number;
  video_count: number;
  cover_asset_id: string | null;
  date_start: string;
  date_end: string;
  depth: number;
  display_name: string;
  folder_path: string;
  repository_id: string;
  repository_name: string;
};
type List = { folders: Summary[]; parent_path: string };

describe('folders', { timeout: 300_000 }, () => {
  let w: World;
  const ids: Record<string, string> = {};

  const list = async (c: Client, query: Record<string, string>): Promise<List> => {
    const r = await c.get(`${V1}/assets/folders?${new URLSearchParams(query)}`);
    assert.equal(r.status, 200, r.text);
    return data<List>(c, r);
  };
  const one = async (c: Client, query: Record<string, string>, status = 200) => {
    const r = await c.get(`${V1}/assets/folders/summary?${new URLSearchParams(query)}`);
    assert.equal(r.status, status, r.text);
    return r;
  };
  /** min/max of capture time (else upload time) of alice's live assets below a folder, from the catalog. */
  const span = (prefix: string) => {
    const row = w.srv.container.db
      .prepare(
        `SELECT min(coalesce(taken_time, upload_time)) AS lo, max(coalesce(taken_time, upload_time)) AS hi FROM assets
         WHERE owner_id = ? AND is_deleted = 0 AND repository_id = ? AND (storage_path LIKE ? OR ? = '')`,
      )
      .get(w.aliceId, w.primary.repository_id, `${prefix}/%`, prefix) as { lo: number; hi: number };
    return { date_start: new Date(row.lo).toISOString(), date_end: new Date(row.hi).toISOString() };
  };

  before(async () => {
    // The folder tree (alice's and bob's photos and a video) comes from the template: RECIPES.folders.
    w = await setup({ template: RECIPES.folders });
    Object.assign(ids, w.srv.template!.assets);
    await w.srv.container.jobRunner.whenIdle();
    const del = await w.alice.req('DELETE', `${V1}/assets/${ids.trashed}`);
    assert.equal(del.status, 200, del.text);
  });
  after(() => w.srv.stop({ removeData: true }));

  test('root of a repository: child folders with recursive counts, cover and time span', async () => {
    const l = await list(w.alice, { repository_id: w.primary.repository_id });
    assert.equal(l.parent_path, '');
    assert.deepEqual(l.folders.map((f) => f.folder_path), ['holidays', 'inbox'], 'bob’s folder is not listed; root files are not a folder');
    const holidays = l.folders[0]!;
    assert.deepEqual(
      { ...holidays, date_start: undefined, date_end: undefined },
      {
        asset_count: 5, // canon, clip, broken, canon40d, nikon (not the trashed one, not bob's)
        audio_count: 0,
        photo_count: 4,
        video_count: 1,
        cover_asset_id: ids.canon, // newest ready photo: 2015-06-12 (the broken one failed)
        date_start: undefined,
        date_end: undefined,
        depth: 1,
        display_name: 'holidays',
        folder_path: 'holidays',
        repository_id: w.primary.repository_id,
        repository_name: w.primary.name,
      },
    );
    assert.deepEqual({ date_start: holidays.date_start, date_end: holidays.date_end }, span('holidays'));
    const nikonTaken = w.srv.container.db.prepare('SELECT taken_time FROM assets WHERE asset_id = ?').pluck().get(ids.nikon) as number;
    assert.equal(holidays.date_start, new Date(nikonTaken).toISOString(), 'the Nikon D70 photo (2008-03-15) is the oldest');
    assert.match(holidays.date_start, /^2008-03-15T/);
    const inbox = l.folders[1]!;
    assert.equal(inbox.asset_count, 1);
    assert.equal(inbox.cover_asset_id, ids.inbox);

    const bobs = await list(w.bob, { repository_id: w.primary.repository_id });
    assert.deepEqual(
      bobs.folders.map((f) => [f.folder_path, f.asset_count, f.cover_asset_id]),
      [
        ['bobonly', 1, ids.bob2],
        ['holidays', 1, ids.bob1],
      ],
      'bob sees only his own files, even in a folder alice also uses',
    );
  });

  test('deeper levels, natural order, leaves, trailing slash', async () => {
    const h = await list(w.alice, { repository_id: w.primary.repository_id, path: 'holidays' });
    assert.equal(h.parent_path, 'holidays');
    assert.deepEqual(
      h.folders.map((f) => [f.folder_path, f.display_name, f.depth, f.asset_count, f.photo_count, f.video_count, f.cover_asset_id]),
      [
        ['holidays/2008', '2008', 2, 1, 1, 0, ids.canon40d],
        ['holidays/2015', '2015', 2, 3, 2, 1, ids.canon],
      ],
    );
    const slash = await list(w.alice, { repository_id: w.primary.repository_id, path: 'holidays/' });
    assert.equal(slash.parent_path, 'holidays');
    assert.deepEqual(slash.folders, h.folders);

    const y = await list(w.alice, { repository_id: w.primary.repository_id, path: 'holidays/2015' });
    assert.deepEqual(y.folders.map((f) => [f.folder_path, f.asset_count, f.photo_count, f.video_count, f.depth]), [['holidays/2015/yosemite', 2, 1, 1, 3]]);
    assert.deepEqual((await list(w.alice, { repository_id: w.primary.repository_id, path: 'holidays/2015/yosemite' })).folders, [], 'a leaf has no child folders');
    assert.deepEqual((await list(w.alice, { repository_id: w.primary.repository_id, path: 'no/such/folder' })).folders, []);
  });

  test('getFolder: one summary, recursive; the root is the repository; 404 where you have nothing', async () => {
    const root = data<Summary>(w.alice, await one(w.alice, { repository_id: w.primary.repository_id }));
    assert.equal(root.asset_count, 7, 'every live file of alice, root file included');
    assert.equal(root.depth, 0);
    assert.equal(root.folder_path, '');
    assert.equal(root.display_name, w.primary.name);
    assert.deepEqual({ date_start: root.date_start, date_end: root.date_end }, span(''));

    const y = data<Summary>(w.alice, await one(w.alice, { repository_id: w.primary.repository_id, path: 'holidays/2015/yosemite' }));
    assert.deepEqual([y.asset_count, y.photo_count, y.video_count, y.depth, y.display_name, y.cover_asset_id], [2, 1, 1, 3, 'yosemite', ids.canon]);
    const h = data<Summary>(w.alice, await one(w.alice, { repository_id: w.primary.repository_id, path: 'holidays' }));
    const fromList = (await list(w.alice, { repository_id: w.primary.repository_id })).folders[0]!;
    assert.deepEqual(h, fromList, 'the summary equals the entry in its parent’s list');

    const p = problem(w.alice, await one(w.alice, { repository_id: w.primary.repository_id, path: 'bobonly' }, 404));
    assert.equal(p.code, 'folder_not_found', 'another member’s folder does not exist for you');
    const bobs = data<Summary>(w.bob, await one(w.bob, { repository_id: w.primary.repository_id, path: 'bobonly' }));
    assert.equal(bobs.asset_count, 1);
    await one(w.alice, { repository_id: w.primary.repository_id, path: 'holidays/nikon.jpg' }, 404);
    const unknown = problem(w.alice, await one(w.alice, { repository_id: '00000000-0000-7000-8000-000000000000' }, 404));
    assert.equal(unknown.code, 'repository_not_found');
  });

  test('bad input: 422 naming the field', async () => {
    const repo = w.primary.repository_id;
    for (const [url, field] of [
      [`/assets/folders?repository_id=${repo}&path=%2Fholidays`, 'query.path'],
      [`/assets/folders?repository_id=${repo}&path=holidays%2F..%2F..`, 'query.path'],
      [`/assets/folders?repository_id=${repo}&path=..`, 'query.path'],
      [`/assets/folders?repository_id=${repo}&path=a%2F%2Fb`, 'query.path'],
      [`/assets/folders?repository_id=${repo}&path=./a`, 'query.path'],
      [`/assets/folders?repository_id=${repo}&path=${'a'.repeat(4097)}`, 'query.path'],
      ['/assets/folders?repository_id=not-a-uuid', 'query.repository_id'],
      ['/assets/folders/summary?path=holidays', 'query.repository_id'],
      [`/assets/folders/summary?repository_id=${repo}&path=%2F`, 'query.path'],
    ] as const) {
      const r = await w.alice.get(`${V1}${url}`);
      assert.equal(r.status, 422, `${url}: ${r.text}`);
      assert.equal(problem(w.alice, r).errors?.[0]?.field, field, url);
    }
    const nf = await w.alice.get(`${V1}/assets/folders?repository_id=00000000-0000-7000-8000-000000000000`);
    assert.equal(nf.status, 404);
    assert.equal((await new Client(w.srv.url).get(`${V1}/assets/folders`)).status, 401);
  });

  test('SQL catalog: prefix siblings, audio/video covers, non-ASCII names, several repositories', async () => {
    const s = w.synth.repository_id;
    const A = w.aliceId;
    const t = (d: string) => utc(`${d}T12:00:00`);
    const rows = {
      ab: insertAsset(w, { owner: A, repo: s, path: 'a/b/1.jpg', taken: t('2020-01-01') }),
      abOld: insertAsset(w, { owner: A, repo: s, path: 'a/b/0.jpg', taken: t('2019-01-01') }),
      aFile: insertAsset(w, { owner: A, repo: s, path: 'a/file.jpg', taken: t('2018-01-01') }),
      aDash: insertAsset(w, { owner: A, repo: s, path: 'a-b/c/2.jpg', taken: t('2021-01-01') }),
      aDot: insertAsset(w, { owner: A, repo: s, path: 'a.x/3.jpg', taken: t('2022-01-01') }),
      a0: insertAsset(w, { owner: A, repo: s, path: 'a0/4.jpg', taken: t('2023-01-01') }),
      vid: insertAsset(w, { owner: A, repo: s, path: 'videos/v.mp4', type: 'VIDEO', taken: t('2020-05-05') }),
      vidNew: insertAsset(w, { owner: A, repo: s, path: 'videos/pending.mp4', type: 'VIDEO', state: 'pending', taken: t('2024-05-05') }),
      song: insertAsset(w, { owner: A, repo: s, path: 'music/s.mp3', type: 'AUDIO', taken: null }),
      pendingPhoto: insertAsset(w, { owner: A, repo: s, path: 'fresh/p.jpg', state: 'pending', taken: t('2024-01-01') }),
      uni: insertAsset(w, { owner: A, repo: s, path: 'Fotos/Über 📷/x.jpg', taken: t('2020-02-02') }),
      uniSib: insertAsset(w, { owner: A, repo: s, path: 'Fotos/Über 📷 2/y.jpg', taken: t('2020-02-03') }),
      trashed: insertAsset(w, { owner: A, repo: s, path: 'a/b/trashed.jpg', taken: t('2025-01-01'), deleted: true }),
      bobs: insertAsset(w, { owner: w.bobId, repo: s, path: 'a/b/bob.jpg', taken: t('2026-01-01') }),
    };
    const a = data<Summary>(w.alice, await one(w.alice, { repository_id: s, path: 'a' }));
    assert.deepEqual([a.asset_count, a.cover_asset_id, a.date_start, a.date_end], [3, rows.ab, '2018-01-01T12:00:00.000Z', '2020-01-01T12:00:00.000Z'], '`a` holds a/b and its own file; not a-b, a.x or a0');
    assert.deepEqual((await list(w.alice, { repository_id: s, path: 'a' })).folders.map((f) => [f.folder_path, f.asset_count]), [['a/b', 2]]);

    const root = await list(w.alice, { repository_id: s });
    assert.deepEqual(
      root.folders.map((f) => [f.folder_path, f.asset_count, f.photo_count, f.video_count, f.audio_count, f.cover_asset_id]),
      [
        ['a', 3, 3, 0, 0, rows.ab],
        ['a-b', 1, 1, 0, 0, rows.aDash],
        ['a.x', 1, 1, 0, 0, rows.aDot],
        ['a0', 1, 1, 0, 0, rows.a0],
        ['Fotos', 2, 2, 0, 0, rows.uniSib],
        ['fresh', 1, 1, 0, 0, rows.pendingPhoto],
        ['music', 1, 0, 0, 1, null],
        ['videos', 2, 0, 2, 0, rows.vid],
      ],
      'sorted case-insensitively; a video folder shows its newest ready video, an audio folder no cover, a folder still processing its newest photo',
    );
    assert.equal(root.folders.find((f) => f.folder_path === 'music')!.date_end, root.folders.find((f) => f.folder_path === 'music')!.date_start);

    const fotos = await list(w.alice, { repository_id: s, path: 'Fotos' });
    assert.deepEqual(fotos.folders.map((f) => [f.folder_path, f.display_name, f.asset_count]), [
      ['Fotos/Über 📷', 'Über 📷', 1],
      ['Fotos/Über 📷 2', 'Über 📷 2', 1],
    ]);
    const uni = data<Summary>(w.alice, await one(w.alice, { repository_id: s, path: 'Fotos/Über 📷' }));
    assert.deepEqual([uni.asset_count, uni.cover_asset_id, uni.depth], [1, rows.uni, 2], 'a sibling whose name extends this one is not inside it');

    // Without repository_id: the children of the path in every repository, by repository name.
    assert.ok(w.synth.name < w.primary.name, `${w.synth.name} sorts before ${w.primary.name}`);
    const all = await list(w.alice, {});
    assert.deepEqual(
      all.folders.map((f) => `${f.repository_name}:${f.folder_path}`),
      [...root.folders.map((f) => `${w.synth.name}:${f.folder_path}`), `${w.primary.name}:holidays`, `${w.primary.name}:inbox`],
    );
    assert.deepEqual((await list(w.bob, { repository_id: s })).folders.map((f) => [f.folder_path, f.asset_count]), [['a', 1]]);
  });

  test('answers follow the catalog: trash and restore move counts and covers', async () => {
    const before = (await list(w.alice, { repository_id: w.primary.repository_id })).folders[0]!;
    assert.equal(before.cover_asset_id, ids.canon);
    assert.equal((await w.alice.req('DELETE', `${V1}/assets/${ids.canon}`)).status, 200);
    const after1 = (await list(w.alice, { repository_id: w.primary.repository_id })).folders[0]!;
    assert.equal(after1.asset_count, 4);
    assert.equal(after1.photo_count, 3);
    assert.equal(after1.cover_asset_id, ids.canon40d, 'the next newest ready photo (2008-05-30) takes over');
    assert.equal((await w.alice.post(`${V1}/assets/${ids.canon}/restore`)).status, 200);
    const after2 = (await list(w.alice, { repository_id: w.primary.repository_id })).folders[0]!;
    assert.deepEqual(after2, before);
  });

  test('variant B wraps the answer in the envelope', async () => {
    const b = new Client(w.srv.url, 'B');
    b.token = w.alice.token;
    const r = await b.get(`${V1}/assets/folders?repository_id=${w.primary.repository_id}`);
    assert.equal(r.status, 200);
    assert.deepEqual(data<List>(b, r).folders.map((f) => f.folder_path), ['holidays', 'inbox']);
  });
});

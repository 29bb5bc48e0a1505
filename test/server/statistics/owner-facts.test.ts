/**
 * Statistics stay exact while the catalog changes under them. The server keeps the facts the
 * statistics count in memory and only reads again the rows the change log names
 * (features/statistics/owner-facts.ts); this walks a few hundred random changes of every kind a
 * statistic depends on (new files, deletions, Trash and restore, new capture times and offsets,
 * new camera, lens and focal length, type, repository and owner changes, RAW+JPEG pairs forming and
 * parting) and after each batch compares every statistic over HTTP with the same count in SQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nonHeadRowids } from '../../../server/src/features/statistics/scope.ts';
import { V1, data } from '../helpers/api.ts';
import { insertAsset, linkItem, setup, type World } from './catalog.ts';

function prng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const LOCAL = '(coalesce(taken_time, upload_time) + coalesce(capture_offset_minutes, 0) * 60000)';
const LOCAL_TAKEN = '(taken_time + coalesce(capture_offset_minutes, 0) * 60000)';

describe('statistics follow every change', { timeout: 300_000 }, () => {
  let w: World;
  before(async () => {
    w = await setup();
    // Rows moved into the primary repository have no file on disk: a scan or the watcher would mark
    // them missing (into the Trash) while the test compares. The catalog is the test's alone.
    await w.srv.container.repositories.stop();
    await w.srv.container.jobRunner.whenIdle();
  });
  after(() => w.srv.stop({ removeData: true }));

  test('after each batch of random changes, every statistic equals the same count in SQL', async () => {
    const db = w.srv.container.db;
    const rnd = prng(11);
    const repos = [w.primary.repository_id, w.synth.repository_id];
    const owners = [w.aliceId, w.bobId];
    // Times around New Year 2019/2020 (offsets move some into the other local year), some unknown.
    const time = () => (rnd(5) === 0 ? null : Date.UTC(2019, 11, 30 + rnd(4), rnd(24), rnd(60)));
    const offset = () => [null, 0, 600, -480, 840][rnd(5)]!;
    const meta = () => ({ camera_model: ['NIKON D750', ' Canon EOS 6D ', '', 'iPhone 12'][rnd(4)], lens_model: [null, '', '24-70mm', ' 50mm '][rnd(4)], focal_length: [null, 0, 4.25, 24, 50, 85.04, 400][rnd(7)] });
    let made = 0;
    const newAsset = () =>
      insertAsset(w, {
        owner: owners[rnd(4) === 0 ? 1 : 0]!,
        repo: repos[rnd(3) === 0 ? 1 : 0]!,
        path: `s/${made++}.jpg`,
        type: (['PHOTO', 'PHOTO', 'PHOTO', 'VIDEO', 'AUDIO'] as const)[rnd(5)],
        taken: time(),
        offset: offset(),
        upload: Date.UTC(2020, 0, 1 + rnd(3)),
        meta: rnd(6) === 0 ? null : meta(),
      });
    const ids: string[] = [];
    for (let i = 0; i < 80; i++) ids.push(newAsset());
    const pick = () => ids[rnd(ids.length)]!;
    const ownerOf = (id: string) => db.prepare('SELECT owner_id FROM assets WHERE asset_id = ?').pluck().get(id) as number;
    const changes: (() => void)[] = [
      () => ids.push(newAsset()),
      () => db.prepare('DELETE FROM assets WHERE asset_id = ?').run(ids.splice(rnd(ids.length), 1)[0]!),
      () => db.prepare('UPDATE assets SET is_deleted = 1 - is_deleted, deleted_at = ? WHERE asset_id = ?').run(Date.now(), pick()),
      () => db.prepare('UPDATE assets SET taken_time = ? WHERE asset_id = ?').run(time(), pick()),
      () => db.prepare('UPDATE assets SET capture_offset_minutes = ? WHERE asset_id = ?').run(offset(), pick()),
      () => db.prepare('UPDATE assets SET specific_metadata = ? WHERE asset_id = ?').run(JSON.stringify(meta()), pick()),
      () => db.prepare('UPDATE assets SET type = ? WHERE asset_id = ?').run(['PHOTO', 'VIDEO', 'AUDIO'][rnd(3)]!, pick()),
      () => db.prepare('UPDATE assets SET repository_id = ? WHERE asset_id = ?').run(repos[rnd(2)]!, pick()),
      () => {
        const id = pick();
        db.prepare('DELETE FROM media_item_components WHERE asset_id = ?').run(id);
        db.prepare('UPDATE assets SET owner_id = ?, media_item_id = NULL WHERE asset_id = ?').run(owners[rnd(2)]!, id);
      },
      () => {
        const a = pick();
        const b = pick();
        const free = db.prepare('SELECT count(*) FROM assets WHERE asset_id IN (?, ?) AND media_item_id IS NULL').pluck().get(a, b) as number;
        if (a !== b && free === 2 && ownerOf(a) === ownerOf(b)) linkItem(w, ownerOf(a), [a, b], ['jpeg_original', 'raw_original']);
      },
      () => {
        const item = db.prepare('SELECT media_item_id FROM media_items ORDER BY random() LIMIT 1').pluck().get() as string | undefined;
        if (!item) return;
        db.prepare('UPDATE assets SET media_item_id = NULL WHERE media_item_id = ?').run(item);
        db.prepare('DELETE FROM media_items WHERE media_item_id = ?').run(item);
      },
      () => db.prepare('UPDATE assets SET liked = 1 - liked WHERE asset_id = ?').run(pick()),
    ];

    /** Counts over the owner's live files standing for their item, grouped by `key` (SQL), as sorted [key, n] pairs. */
    const sqlCount = (owner: number, repo: string | undefined, key: string, where = '1') => {
      const nonHeads = new Set(nonHeadRowids(db, owner));
      const counts = new Map<string, number>();
      for (const r of db
        .prepare(`SELECT rowid, ${key} AS k FROM assets WHERE owner_id = @owner AND is_deleted = 0 AND (@repo IS NULL OR repository_id = @repo) AND ${where}`)
        .all({ owner, repo: repo ?? null }) as { rowid: number; k: unknown }[]) {
        if (nonHeads.has(r.rowid)) continue;
        const k = JSON.stringify(r.k);
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    };
    const pairs = (xs: [unknown, number][]) => xs.filter(([, n]) => n > 0).map(([k, n]) => [JSON.stringify(k), n] as [string, number]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

    let compared = 0;
    for (let batch = 0; batch < 30; batch++) {
      const n = 1 + rnd(10);
      for (let i = 0; i < n; i++) changes[rnd(changes.length)]!();
      for (const [client, owner] of [[w.alice, w.aliceId], [w.bob, w.bobId]] as const) {
        for (const repo of [undefined, repos[1]]) {
          const get = async <T>(path: string, q: Record<string, string> = {}) => {
            const r = await client.get(`${V1}${path}?${new URLSearchParams({ ...q, ...(repo ? { repository_id: repo } : {}) })}`);
            assert.equal(r.status, 200, r.text);
            compared++;
            return data<T>(client, r);
          };
          const at = `batch ${batch}, repo ${repo ?? 'all'}`;
          const years = await get<{ years: { year: number; count: number }[] }>('/stats/available-years');
          assert.deepEqual(pairs(years.years.map((y) => [y.year, y.count])), sqlCount(owner, repo, `CAST(strftime('%Y', ${LOCAL} / 1000.0, 'unixepoch') AS INTEGER)`), `${at}: years`);

          const cams = await get<{ items: { camera_model: string; lens_model: string | null; count: number }[] }>('/stats/camera-lens', { limit: '100' });
          assert.deepEqual(
            pairs(cams.items.map((c) => [`${c.camera_model} | ${c.lens_model ?? '-'}`, c.count])),
            sqlCount(owner, repo, "trim(camera_model) || ' | ' || coalesce(nullif(trim(lens_model), ''), '-')", "type = 'PHOTO' AND trim(camera_model) <> ''"),
            `${at}: camera-lens`,
          );

          const heat = await get<{ days: { date: string; count: number }[] }>('/stats/daily-activity', { start_date: '2019-12-29', end_date: '2020-01-04' });
          assert.deepEqual(
            pairs(heat.days.map((d) => [d.date, d.count])),
            sqlCount(owner, repo, `date(${LOCAL} / 1000.0, 'unixepoch')`, `date(${LOCAL} / 1000.0, 'unixepoch') BETWEEN '2019-12-29' AND '2020-01-04'`),
            `${at}: heatmap`,
          );

          const focal = await get<{ top_values: { focal_length: number; count: number }[]; unknown_count: number; total: number }>('/stats/focal-length');
          const fl = sqlCount(owner, repo, "CASE WHEN CAST(json_extract(specific_metadata, '$.focal_length') AS REAL) > 0 THEN round(CAST(json_extract(specific_metadata, '$.focal_length') AS REAL), 1) END", "type = 'PHOTO'");
          assert.deepEqual(pairs(focal.top_values.map((v) => [v.focal_length, v.count])), fl.filter(([k]) => k !== 'null'), `${at}: focal values`);
          assert.equal(focal.unknown_count, fl.find(([k]) => k === 'null')?.[1] ?? 0, `${at}: focal unknown`);

          for (const [type, fmt] of [['hourly', '%H'], ['monthly', '%m']] as const) {
            const t = await get<{ buckets: { bucket: number; count: number }[] }>('/stats/time-distribution', { type });
            assert.deepEqual(
              pairs(t.buckets.map((b) => [b.bucket, b.count])),
              sqlCount(owner, repo, `CAST(strftime('${fmt}', ${LOCAL_TAKEN} / 1000.0, 'unixepoch') AS INTEGER)`, 'taken_time IS NOT NULL'),
              `${at}: ${type}`,
            );
          }
        }
      }
    }
    assert.ok(compared > 500);
  });
});

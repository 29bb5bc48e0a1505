/**
 * Map points stay exact while the catalog changes under them. The server keeps every geotagged
 * file in memory and only reads again the rows the change log names (features/places/map-index.ts);
 * this walks a few hundred random changes of every kind a map depends on (new files with and
 * without a position, deletions, Trash and restore, new positions including (0, 0) and none, new
 * capture times, moves between repositories, a change of owner, RAW+JPEG pairs forming and parting)
 * and after each batch compares totals and pages over HTTP with the same question asked of SQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nonHeadRowids } from '../../../server/src/features/statistics/scope.ts';
import { V1, data } from '../helpers/api.ts';
import { insertAsset, linkItem, setup, type World } from '../statistics/catalog.ts';

type Points = { total: number; points: { asset_id: string }[] };

function prng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

describe('map points follow every change', { timeout: 300_000 }, () => {
  let w: World;
  before(async () => {
    w = await setup();
    // Rows moved into the primary repository have no file on disk: a scan or the watcher would mark
    // them missing (into the Trash) while the test compares, and the answers now yield the event
    // loop while they read. The catalog is the test's alone.
    await w.srv.container.repositories.stop();
    await w.srv.container.jobRunner.whenIdle();
  });
  after(() => w.srv.stop({ removeData: true }));

  test('after each batch of random changes, totals and pages (every field of every point) equal the same question asked of SQL', async () => {
    const db = w.srv.container.db;
    const rnd = prng(7);
    const repos = [w.primary.repository_id, w.synth.repository_id];
    const owners = [w.aliceId, w.bobId];
    // Positions on a small grid (ties in time and place happen), sometimes (0, 0) or none.
    const position = () => (rnd(6) === 0 ? { lat: null, lon: null } : rnd(10) === 0 ? { lat: 0, lon: 0 } : { lat: -60 + rnd(13) * 10, lon: -180 + rnd(37) * 10 });
    const time = () => (rnd(4) === 0 ? null : Date.UTC(2015 + rnd(3), rnd(12), 1 + rnd(3)));
    let made = 0;
    const newAsset = () => {
      const { lat, lon } = position();
      return insertAsset(w, { owner: owners[rnd(4) === 0 ? 1 : 0]!, repo: repos[rnd(3) === 0 ? 1 : 0]!, path: `m/${made++}.jpg`, lat, lon, taken: time(), upload: Date.UTC(2020, 0, 1 + rnd(3)) });
    };
    const ids: string[] = [];
    for (let i = 0; i < 80; i++) ids.push(newAsset());
    const pick = () => ids[rnd(ids.length)]!;
    const ownerOf = (id: string) => db.prepare('SELECT owner_id FROM assets WHERE asset_id = ?').pluck().get(id) as number;

    const changes: (() => void)[] = [
      () => ids.push(newAsset()),
      () => db.prepare('DELETE FROM assets WHERE asset_id = ?').run(ids.splice(rnd(ids.length), 1)[0]!),
      () => db.prepare('UPDATE assets SET is_deleted = 1 - is_deleted, deleted_at = ? WHERE asset_id = ?').run(Date.now(), pick()),
      () => {
        const { lat, lon } = position();
        db.prepare('UPDATE assets SET gps_latitude = ?, gps_longitude = ? WHERE asset_id = ?').run(lat, lon, pick());
      },
      () => db.prepare('UPDATE assets SET taken_time = ? WHERE asset_id = ?').run(time(), pick()),
      () => db.prepare('UPDATE assets SET repository_id = ? WHERE asset_id = ?').run(repos[rnd(2)]!, pick()),
      () => {
        const id = pick();
        db.prepare('DELETE FROM media_item_components WHERE asset_id = ?').run(id);
        db.prepare('UPDATE assets SET owner_id = ?, media_item_id = NULL WHERE asset_id = ?').run(owners[rnd(2)]!, id);
      },
      // A pair forms: two of one owner's unpaired files become one media item (one point).
      () => {
        const a = pick();
        const b = pick();
        const free = db.prepare('SELECT count(*) FROM assets WHERE asset_id IN (?, ?) AND media_item_id IS NULL').pluck().get(a, b) as number;
        if (a !== b && free === 2 && ownerOf(a) === ownerOf(b)) linkItem(w, ownerOf(a), [a, b], ['jpeg_original', 'raw_original']);
      },
      // A pair parts.
      () => {
        const item = db.prepare('SELECT media_item_id FROM media_items ORDER BY random() LIMIT 1').pluck().get() as string | undefined;
        if (!item) return;
        db.prepare('UPDATE assets SET media_item_id = NULL WHERE media_item_id = ?').run(item);
        db.prepare('DELETE FROM media_items WHERE media_item_id = ?').run(item);
      },
      () => db.prepare('UPDATE assets SET liked = 1 - liked WHERE asset_id = ?').run(pick()),
      // A new name: the point's kept JSON must not outlive it.
      () => db.prepare('UPDATE assets SET original_filename = ? WHERE asset_id = ?').run(`renamed-${made++}.jpg`, pick()),
    ];

    const boxes = [undefined, { south: -30, north: 40, west: -100, east: 100 }, { south: -60, north: 60, west: 150, east: -150 }];
    /** The same question asked of SQL: every matching row, map order. */
    const expected = (owner: number, box: (typeof boxes)[number], repo: string | undefined) => {
      const nonHeads = new Set(nonHeadRowids(db, owner));
      const lon = box ? (box.west <= box.east ? 'gps_longitude BETWEEN @west AND @east' : '(gps_longitude >= @west OR gps_longitude <= @east)') : '1';
      return (
        db
          .prepare(
            `SELECT rowid, asset_id, gps_latitude, gps_longitude, original_filename, taken_time, upload_time FROM assets WHERE owner_id = @owner AND is_deleted = 0 AND gps_latitude IS NOT NULL AND gps_longitude IS NOT NULL
               AND NOT (gps_latitude = 0 AND gps_longitude = 0) AND (@repo IS NULL OR repository_id = @repo)
               AND ${box ? 'gps_latitude BETWEEN @south AND @north' : '1'} AND ${lon}
             ORDER BY coalesce(taken_time, upload_time) DESC, asset_id DESC`,
          )
          .all({ owner, repo: repo ?? null, ...(box ?? {}) }) as ({ rowid: number; taken_time: number | null; upload_time: number } & Record<string, unknown>)[]
      )
        .filter((r) => !nonHeads.has(r.rowid))
        .map(({ rowid: _, taken_time, upload_time, ...r }) => ({
          ...r,
          taken_time: taken_time === null ? null : new Date(taken_time).toISOString(),
          upload_time: new Date(upload_time).toISOString(),
        }));
    };

    let compared = 0;
    for (let batch = 0; batch < 40; batch++) {
      const n = 1 + rnd(10);
      for (let i = 0; i < n; i++) changes[rnd(changes.length)]!();
      for (const [client, owner] of [[w.alice, w.aliceId], [w.bob, w.bobId]] as const) {
        for (const box of boxes) {
          for (const repo of [undefined, repos[1]]) {
            const want = expected(owner, box, repo);
            for (const [limit, offset] of [[1000, 0], [7, 3]] as const) {
              const q = new URLSearchParams({ limit: String(limit), offset: String(offset), ...(repo ? { repository_id: repo } : {}) });
              if (box) for (const [k, v] of Object.entries(box)) q.set(k, String(v));
              const r = await client.get(`${V1}/assets/map-points?${q}`);
              assert.equal(r.status, 200, r.text);
              const got = data<Points>(client, r);
              assert.equal(got.total, want.length, `batch ${batch}: total for ${q}`);
              assert.deepEqual(got.points, want.slice(offset, offset + limit), `batch ${batch}: page ${q}`);
              compared++;
            }
          }
        }
      }
    }
    assert.ok(compared > 400);
  });
});

/**
 * queryAssets over HTTP on a real catalog: corpus files go through the real ingest path and the
 * media pipeline, then the unified list is checked for ownership, pairs counted once (RAW+JPEG and a
 * live photo), failed assets listed, trash left out by default, both sorts, paging edges and a
 * strict body.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';

import { CORPUS } from '../media/corpus.ts';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Item = {
  id: string;
  type: string;
  best_ts_ms: number;
  stack: null;
  media_item: {
    media_item_id: string;
    media_kind: string;
    composition: { component_count: number; has_edited: boolean; has_jpeg: boolean; has_live_motion: boolean; has_raw: boolean };
    primary_asset: { asset_id: string; original_filename: string; type: string; state: string; last_error: string | null; upload_time: string; taken_time: string | null; is_deleted: boolean; owner_id: number };
    stack: null;
  };
};
type List = { items: Item[]; limit: number; offset: number; stack_mode: string; total_files: number; total_media_items: number; total_visible: number };

describe('queryAssets', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let other: Client;
  const ids: Record<string, string> = {};
  /** Owner's files, indexed one after the other (upload_time increases in this order). */
  const OWNER_FILES = {
    nikonJpeg: 'raw/RAW_NIKON_D1.JPG',
    nikonRaw: 'raw/RAW_NIKON_D1.NEF',
    liveStill: 'live/IMG_7943.HEIC',
    liveMotion: 'live/IMG_7943_HEVC.MOV',
    canon: 'gps/Canon_600D_gps.jpg',
    noExif: 'exif/no_exif.jpg',
    corrupt: 'exif/corrupted.jpg',
    video: 'video/with-gps.mp4',
    trashed: 'exif/Canon_40D.jpg',
  };

  const query = (c: Client, body?: unknown) => c.post(`${V1}/assets/query`, body);
  const list = async (c: Client, body?: unknown): Promise<List> => {
    const r = await query(c, body);
    assert.equal(r.status, 200, r.text);
    return data<List>(c, r);
  };

  before(async () => {
    srv = await startServer();
    owner = new Client(srv.url);
    const me = await registerAdmin(owner);
    other = new Client(srv.url);
    const bob = await addMember(owner, other, 'bob');
    const repo = srv.container.repositories.primary()!;
    const index = async (rel: string, ownerId: number) => {
      fs.mkdirSync(path.join(repo.path, path.dirname(rel)), { recursive: true });
      fs.copyFileSync(path.join(CORPUS, rel), path.join(repo.path, rel));
      const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: rel, ownerId, source: 'scan' });
      assert.equal(r.outcome, 'created', `${rel}: ${JSON.stringify(r)}`);
      await sleep(3); // distinct upload times
      return (r as { asset_id: string }).asset_id;
    };
    for (const [k, rel] of Object.entries(OWNER_FILES)) ids[k] = await index(rel, me.session.user.user_id);
    ids.bob = await index('gps/DSCN0010.jpg', bob.session.user.user_id);
    await srv.container.jobRunner.whenIdle();
    // The trashed file goes missing on disk: the catalog moves it to the trash.
    fs.rmSync(path.join(repo.path, OWNER_FILES.trashed));
    assert.ok(srv.container.ingest.markMissing(repo.repository_id, OWNER_FILES.trashed));
  });
  after(() => srv.stop({ removeData: true }));

  test('lists the caller’s own items: pairs and live photos once, failed assets too, trash left out', async () => {
    const l = await list(owner, {});
    assert.equal(l.stack_mode, 'collapsed');
    assert.equal(l.limit, 50);
    assert.equal(l.offset, 0);
    // nikon pair (1) + live photo (1) + canon + noExif + corrupt + video = 6 items from 8 files
    assert.equal(l.total_media_items, 6, JSON.stringify(l.items.map((i) => i.media_item.primary_asset.original_filename)));
    assert.equal(l.total_visible, 6);
    assert.equal(l.total_files, 8);
    assert.equal(l.items.length, 6);
    const names = l.items.map((i) => i.media_item.primary_asset.original_filename);
    assert.ok(!names.includes('DSCN0010.jpg'), 'another user’s asset is not listed');
    assert.ok(!names.includes('Canon_40D.jpg'), 'trash is left out by default');
    assert.ok(!names.includes('RAW_NIKON_D1.NEF') && !names.includes('IMG_7943_HEVC.MOV'), 'components other than the primary are not rows');
    assert.ok(l.items.every((i) => i.media_item.primary_asset.owner_id === l.items[0]!.media_item.primary_asset.owner_id));

    const pair = l.items.find((i) => i.media_item.primary_asset.asset_id === ids.nikonJpeg)!;
    assert.ok(pair, 'the JPEG is the primary of the RAW+JPEG pair');
    assert.equal(pair.media_item.media_kind, 'photo');
    assert.deepEqual(pair.media_item.composition, { component_count: 2, has_edited: false, has_jpeg: true, has_live_motion: false, has_raw: true });
    assert.equal(pair.id, `media:${pair.media_item.media_item_id}`);
    assert.equal(pair.type, 'media_item');
    assert.equal(pair.stack, null);
    assert.equal(pair.media_item.stack, null);

    const live = l.items.find((i) => i.media_item.primary_asset.asset_id === ids.liveStill)!;
    assert.ok(live, 'the still is the primary of the live photo');
    assert.equal(live.media_item.media_kind, 'live_photo');
    assert.equal(live.media_item.composition.component_count, 2);
    assert.equal(live.media_item.composition.has_live_motion, true);

    const failed = l.items.find((i) => i.media_item.primary_asset.asset_id === ids.corrupt)!;
    assert.equal(failed.media_item.primary_asset.state, 'failed');
    assert.ok(failed.media_item.primary_asset.last_error);
    assert.equal(failed.media_item.media_item_id, ids.corrupt, 'an unlinked asset stands alone under its own id');
    assert.equal(failed.media_item.composition.component_count, 1);

    const video = l.items.find((i) => i.media_item.primary_asset.asset_id === ids.video)!;
    assert.equal(video.media_item.media_kind, 'video');
    assert.equal(video.media_item.primary_asset.type, 'VIDEO');

    const bobs = await list(other);
    assert.deepEqual(bobs.items.map((i) => i.media_item.primary_asset.asset_id), [ids.bob]);
    assert.equal(bobs.total_media_items, 1);
    assert.equal(bobs.total_files, 1);
  });

  test('recently_added is newest upload first; date_captured is newest capture first', async () => {
    const recent = await list(owner, { sort_by: 'recently_added' });
    const order = recent.items.map((i) => i.media_item.primary_asset.asset_id);
    // Indexed in OWNER_FILES order; the pair and live photo rows stand at their primary.
    assert.deepEqual(order, [ids.video, ids.corrupt, ids.noExif, ids.canon, ids.liveStill, ids.nikonJpeg]);
    assert.deepEqual(order, (await list(owner)).items.map((i) => i.media_item.primary_asset.asset_id), 'recently_added is the default');

    const captured = await list(owner, { sort_by: 'date_captured' });
    const ts = captured.items.map((i) => {
      const a = i.media_item.primary_asset;
      return Date.parse(a.taken_time ?? a.upload_time);
    });
    assert.deepEqual(ts, [...ts].sort((x, y) => y - x), 'non-increasing capture time');
    assert.deepEqual(captured.items.map((i) => i.best_ts_ms), ts, 'best_ts_ms is the capture time, else the upload time');
    // The Nikon D1 pair was taken in 2000: the oldest capture of the set.
    assert.equal(captured.items.at(-1)!.media_item.primary_asset.asset_id, ids.nikonJpeg);
    assert.notDeepEqual(captured.items.map((i) => i.id), recent.items.map((i) => i.id));
  });

  test('paging: every item exactly once across pages; past the end is empty; totals always full', async () => {
    const all = (await list(owner, { pagination: { limit: 200 } })).items.map((i) => i.id);
    assert.equal(all.length, 6);
    const seen: string[] = [];
    for (let offset = 0; offset < 8; offset += 4) {
      const p = await list(owner, { pagination: { limit: 4, offset } });
      assert.equal(p.limit, 4);
      assert.equal(p.offset, offset);
      assert.equal(p.total_media_items, 6);
      seen.push(...p.items.map((i) => i.id));
    }
    assert.deepEqual(seen, all);
    const one = await list(owner, { pagination: { limit: 1, offset: 5 } });
    assert.deepEqual(one.items.map((i) => i.id), [all[5]]);
    const past = await list(owner, { pagination: { limit: 50, offset: 6 } });
    assert.deepEqual(past.items, []);
    assert.equal(past.total_media_items, 6);
    const far = await list(owner, { pagination: { offset: 1000 } });
    assert.deepEqual(far.items, []);
    assert.equal(far.limit, 50, 'limit defaults to 50');

    for (const [pagination, field] of [
      [{ limit: 0 }, 'body.pagination.limit'],
      [{ limit: 201 }, 'body.pagination.limit'],
      [{ limit: 2.5 }, 'body.pagination.limit'],
      [{ offset: -1 }, 'body.pagination.offset'],
    ] as const) {
      const r = await query(owner, { pagination });
      assert.equal(r.status, 422, JSON.stringify(pagination));
      assert.equal(problem(owner, r).errors?.[0]?.field, field);
    }
  });

  test('filters: type(s), liked, trash, repository, folder', async () => {
    const videos = await list(owner, { filter: { type: 'VIDEO' } });
    assert.deepEqual(videos.items.map((i) => i.media_item.primary_asset.asset_id), [ids.video]);
    const photos = await list(owner, { filter: { types: ['PHOTO'] } });
    assert.equal(photos.total_media_items, 5);
    assert.equal((await list(owner, { filter: { type: 'AUDIO' } })).total_media_items, 0);

    const trash = await list(owner, { filter: { is_deleted: true } });
    assert.deepEqual(trash.items.map((i) => i.media_item.primary_asset.asset_id), [ids.trashed]);
    assert.equal(trash.items[0]!.media_item.primary_asset.is_deleted, true);

    assert.equal((await list(owner, { filter: { liked: true } })).total_media_items, 0);
    assert.equal((await list(owner, { filter: { liked: false } })).total_media_items, 6);

    const repo = srv.container.repositories.primary()!;
    assert.equal((await list(owner, { filter: { repository_id: repo.repository_id } })).total_media_items, 6);
    assert.equal((await list(owner, { filter: { repository_id: '00000000-0000-7000-8000-000000000000' } })).total_media_items, 0);

    const raw = await list(owner, { filter: { folder_path: 'raw' } });
    assert.deepEqual(raw.items.map((i) => i.media_item.primary_asset.asset_id), [ids.nikonJpeg]);
    assert.equal(raw.total_files, 2);
    assert.equal((await list(owner, { filter: { folder_path: '/exif/' } })).total_media_items, 2);
    assert.equal((await list(owner, { filter: { folder_path: '', folder_recursive: false } })).total_media_items, 0, 'nothing at the root');
    assert.equal((await list(owner, { filter: { folder_path: '', folder_recursive: true } })).total_media_items, 6);
    assert.equal((await list(owner, { filter: { folder_path: 'ex' } })).total_media_items, 0, 'a folder prefix is not a folder');
  });

  test('stack_mode is echoed; both modes give the same list while no stacks exist', async () => {
    const collapsed = await list(owner, { stack_mode: 'collapsed' });
    const expanded = await list(owner, { stack_mode: 'expanded' });
    assert.equal(expanded.stack_mode, 'expanded');
    assert.deepEqual(expanded.items, collapsed.items);
  });

  test('the body is optional and strict; anonymous callers get 401', async () => {
    const noBody = await owner.req('POST', `${V1}/assets/query`);
    assert.equal(noBody.status, 200, noBody.text);
    assert.equal(data<List>(owner, noBody).total_media_items, 6);

    const unknown = await query(owner, { filter: { colour: 'red' } });
    assert.equal(unknown.status, 422);
    assert.match(JSON.stringify(problem(owner, unknown).errors), /colour/);
    const top = await query(owner, { sort: 'date_captured' });
    assert.equal(top.status, 422);
    assert.match(problem(owner, top).detail, /sort/);
    const badSort = await query(owner, { sort_by: 'name' });
    assert.equal(problem(owner, badSort).errors?.[0]?.field, 'body.sort_by');
    const badType = await query(owner, { filter: { type: 'DOCUMENT' } });
    assert.equal(problem(owner, badType).errors?.[0]?.field, 'body.filter.type');
    const badFolder = await query(owner, { filter: { folder_path: '../etc' } });
    assert.equal(badFolder.status, 422);

    assert.equal((await new Client(srv.url).post(`${V1}/assets/query`, {})).status, 401);
  });

  test('variant B wraps the list in the envelope', async () => {
    const b = new Client(srv.url, 'B');
    b.token = owner.token;
    const l = data<List>(b, await b.post(`${V1}/assets/query`, { pagination: { limit: 2 } }));
    assert.equal(l.items.length, 2);
    assert.equal(l.total_media_items, 6);
  });

  test('a pair whose JPEG went to the trash: the RAW stands for it in the library, the JPEG in the Trash', async () => {
    const repo = srv.container.repositories.primary()!;
    fs.rmSync(path.join(repo.path, OWNER_FILES.nikonJpeg));
    assert.ok(srv.container.ingest.markMissing(repo.repository_id, OWNER_FILES.nikonJpeg));
    const lib = await list(owner);
    assert.equal(lib.total_media_items, 6);
    assert.equal(lib.total_files, 7);
    const pair = lib.items.find((i) => i.media_item.primary_asset.asset_id === ids.nikonRaw)!;
    assert.ok(pair, 'the RAW is listed');
    assert.deepEqual(pair.media_item.composition, { component_count: 1, has_edited: false, has_jpeg: false, has_live_motion: false, has_raw: true });
    assert.ok(!lib.items.some((i) => i.media_item.primary_asset.asset_id === ids.nikonJpeg));
    const trash = await list(owner, { filter: { is_deleted: true } });
    assert.deepEqual(new Set(trash.items.map((i) => i.media_item.primary_asset.asset_id)), new Set([ids.nikonJpeg, ids.trashed]));
    assert.equal(trash.items.find((i) => i.media_item.primary_asset.asset_id === ids.nikonJpeg)!.media_item.media_item_id, pair.media_item.media_item_id);
  });
});

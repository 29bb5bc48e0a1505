/**
 * queryAssets against a plain model on a synthetic catalog written through the catalog factories (the
 * real stores, helpers/factories.ts): ~2,000
 * files with RAW+JPEG pairs, edits, live photos, files in the Trash that split items across the two
 * states, bursts and manual stacks. For many filters, both sorts and both stack modes, the answer
 * must be exactly what a naive computation over the same rows gives: the rows, their order, the
 * totals, the stack rows; and paging must walk the list without gaps or repeats.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, registerAdmin } from '../helpers/api.ts';
import { catalogOf, type CatalogFactory } from '../helpers/factories.ts';

type Ref = { media_item_id: string; primary_asset_id: string };
type Item = {
  media_item: { media_item_id: string; primary_asset: { asset_id: string }; stack: { stack_id: string; member_count: number; is_cover: boolean } | null; composition: { component_count: number } };
  stack: { stack_id: string; cover: Ref; matched_members: number; members: Ref[] } | null;
};
type List = { items: Item[]; total_files: number; total_media_items: number; total_visible: number };

interface A {
  id: string;
  owner: number;
  del: 0 | 1;
  type: 'PHOTO' | 'VIDEO';
  liked: 0 | 1;
  rating: number;
  upload: number;
  taken: number | null;
  camera: string;
  raw: boolean;
  item: string;
  position: number;
  relation: string;
  name: string;
}
interface S {
  id: string;
  kind: 'burst' | 'manual';
  cover: string | null;
  members: string[];
}

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}
const hex = (n: number, w: number) => n.toString(16).padStart(w, '0');
const uuid = (prefix: number, n: number) => `0195f000-${hex(prefix, 4)}-7000-8000-${hex(n, 12)}`;
/** The synthetic repository every file of the model is in. */
const REPO = '0195f000-0000-7000-8000-00000000feed';

describe('queryAssets against a model of the list', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let aliceId: number;
  let catalog: CatalogFactory;
  const assets: A[] = [];
  const stacks: S[] = [];
  const itemKind = new Map<string, string>();
  /** media_items.primary_asset_id as in the catalog (not changed when files move or go). */
  const primaryOf = new Map<string, string>();

  before(async () => {
    srv = await startServer();
    alice = new Client(srv.url);
    aliceId = (await registerAdmin(alice)).session.user.user_id;
    const bobId = (await addMember(alice, new Client(srv.url), 'bob')).session.user.user_id;
    const db = srv.container.db;
    const now = Date.now();
    catalog = catalogOf(db, () => now);
    // Not mounted here (offline): never scanned, so the rows stay as written.
    const repo = catalog.repository({ repository_id: REPO, name: 'Synthetic', path: '/nonexistent/hearth-model', status: 'offline' });

    const r = rng(42);
    let n = 0;
    let itemNo = 0;
    const cameras = ['Alpha', 'Beta', 'Gamma'];
    const add = (owner: number, item: string, position: number, relation: string, over: Partial<A>) => {
      n++;
      const a: A = {
        id: uuid(1, n),
        owner,
        del: 0,
        type: 'PHOTO',
        liked: r() < 0.1 ? 1 : 0,
        rating: r() < 0.3 ? 1 + Math.floor(r() * 5) : 0,
        upload: 1_700_000_000_000 + n * 1000, // unique, increasing
        taken: r() < 0.1 ? null : 1_000_000_000_000 + Math.floor(r() * 1e6) * 1000 + n, // unique
        camera: cameras[Math.floor(r() * 3)]!,
        raw: false,
        item,
        position,
        relation,
        name: `F${n}.JPG`,
        ...over,
      };
      assets.push(a);
      return a;
    };
    const items: string[] = [];
    for (let i = 0; i < 1400; i++) {
      const owner = i % 7 === 6 ? bobId : aliceId;
      const item = uuid(2, ++itemNo);
      const u = r();
      if (u < 0.15) {
        const j = add(owner, item, 0, 'jpeg_original', {});
        add(owner, item, 1, 'raw_original', { raw: true, name: j.name.replace('.JPG', '.NEF'), taken: j.taken, camera: j.camera });
        itemKind.set(item, 'photo');
      } else if (u < 0.2) {
        const j = add(owner, item, 0, 'jpeg_original', {});
        add(owner, item, 1, 'edited_version', { name: j.name.replace('.JPG', '-2.JPG'), taken: j.taken, camera: j.camera });
        add(owner, item, 2, 'raw_original', { raw: true, name: j.name.replace('.JPG', '.NEF'), taken: j.taken, camera: j.camera });
        itemKind.set(item, 'photo');
      } else if (u < 0.3) {
        const s = add(owner, item, 0, 'live_photo_still', { name: `L${n + 1}.HEIC` });
        add(owner, item, 1, 'live_photo_video', { type: 'VIDEO', name: s.name.replace('.HEIC', '.MOV'), taken: s.taken, camera: s.camera });
        itemKind.set(item, 'live_photo');
      } else if (u < 0.33) {
        add(owner, item, 0, 'original', { raw: true, name: `R${n + 1}.NEF` });
        itemKind.set(item, 'photo');
      } else if (u < 0.4) {
        add(owner, item, 0, 'original', { type: 'VIDEO', name: `V${n + 1}.MP4` });
        itemKind.set(item, 'video');
      } else {
        add(owner, item, 0, 'original', {});
        itemKind.set(item, 'photo');
      }
      items.push(item);
    }
    // The Trash: 6% of the files, so some items are split across the library and the Trash.
    for (const a of assets) if (r() < 0.06) a.del = 1;
    // Stacks of alice's and bob's items: runs of 2..6 consecutive items of one owner.
    const ownerOf = (item: string) => assets.find((a) => a.item === item)!.owner;
    for (let i = 0; i < items.length - 6; ) {
      if (r() < 0.12) {
        const size = 2 + Math.floor(r() * 5);
        const run = items.slice(i, i + size).filter((it) => ownerOf(it) === ownerOf(items[i]!));
        if (run.length >= 2) stacks.push({ id: uuid(3, stacks.length + 1), kind: r() < 0.7 ? 'burst' : 'manual', cover: r() < 0.6 ? run[Math.floor(r() * run.length)]! : null, members: run });
        i += size;
      } else i++;
    }

    db.transaction(() => {
      const byItem = new Map<string, A[]>();
      for (const a of assets) {
        catalog.asset({
          asset_id: a.id,
          owner_id: a.owner,
          repository_id: repo,
          storage_path: `y${a.upload % 3}/${a.name}`,
          type: a.type,
          original_filename: a.name,
          mime_type: a.raw ? 'image/x-nikon-nef' : a.type === 'VIDEO' ? 'video/mp4' : a.name.endsWith('.HEIC') ? 'image/heic' : 'image/jpeg',
          upload_time: a.upload,
          taken_time: a.taken,
          liked: a.liked,
          rating: a.rating,
          is_deleted: a.del,
          deleted_at: a.del ? now : null,
          specific_metadata: JSON.stringify({ camera_model: a.camera, is_raw: a.raw }),
          created_at: now,
        });
        byItem.set(a.item, [...(byItem.get(a.item) ?? []), a]);
      }
      // Each item's files were added in position order (0, 1, …): the first is its primary.
      for (const [item, files] of byItem) {
        catalog.mediaItem(files[0]!.owner, itemKind.get(item)!, files.map((a) => ({ asset_id: a.id, relation: a.relation })), item);
        primaryOf.set(item, files[0]!.id);
      }
      for (const s of stacks) catalog.stack({ stack_id: s.id, owner_id: ownerOf(s.members[0]!), stack_kind: s.kind, members: s.members, cover_media_item_id: s.cover });
    })();
  });
  after(() => srv.stop({ removeData: true }));

  // ------------------------------------------------------------------ the model

  type Filter = { type?: string; liked?: boolean; rating?: number; camera_model?: string; is_deleted?: boolean; composition?: string; membership?: 'stacked' | 'unstacked'; kinds?: string[]; from?: number; to?: number };
  function model(owner: number, f: Filter, sort: 'recently_added' | 'date_captured', mode: 'collapsed' | 'expanded') {
    const del = f.is_deleted ? 1 : 0;
    const comps = (item: string) => assets.filter((a) => a.item === item && a.del === del).sort((x, y) => x.position - y.position);
    const stackOf = (item: string) => stacks.find((s) => s.members.includes(item));
    const rows = assets.filter((a) => {
      if (a.owner !== owner || a.del !== del || comps(a.item)[0] !== a) return false;
      if (f.type && a.type !== f.type) return false;
      if (f.liked !== undefined && a.liked !== (f.liked ? 1 : 0)) return false;
      if (f.rating !== undefined && a.rating !== f.rating) return false;
      if (f.camera_model && a.camera !== f.camera_model) return false;
      const best = a.taken ?? a.upload;
      if (f.from !== undefined && best < f.from) return false;
      if (f.to !== undefined && best > f.to) return false;
      const hasRaw = comps(a.item).some((c) => c.raw);
      if (f.composition === 'contains_raw' && !hasRaw) return false;
      if (f.composition === 'no_raw' && hasRaw) return false;
      if (f.composition === 'raw_unpaired' && !a.raw) return false;
      if (f.composition === 'jpeg_raw' && !(hasRaw && !a.raw)) return false;
      if (f.composition === 'live_photo' && itemKind.get(a.item) !== 'live_photo') return false;
      if (f.membership || f.kinds) {
        const s = stackOf(a.item);
        const inStack = !!s && (!f.kinds || f.kinds.includes(s.kind));
        if (inStack !== ((f.membership ?? 'stacked') === 'stacked')) return false;
      }
      return true;
    });
    const key = (a: A) => (sort === 'recently_added' ? a.upload : (a.taken ?? a.upload));
    rows.sort((x, y) => key(y) - key(x));
    const files = rows.reduce((s, a) => s + comps(a.item).length, 0);
    const cover = (s: S) => (s.cover && s.members.includes(s.cover) ? s.cover : s.members[0]!);
    let visible = rows;
    const matched = new Map<string, number>();
    if (mode === 'collapsed') {
      const shown = new Map<string, A>();
      for (const a of rows) {
        const s = stackOf(a.item);
        if (!s) continue;
        matched.set(s.id, (matched.get(s.id) ?? 0) + 1);
        const rank = (x: A) => (x.item === cover(s) ? -1 : s.members.indexOf(x.item));
        const cur = shown.get(s.id);
        if (!cur || rank(a) < rank(cur)) shown.set(s.id, a);
      }
      visible = rows.filter((a) => {
        const s = stackOf(a.item);
        return !s || shown.get(s.id) === a;
      });
    }
    return {
      ids: visible.map((a) => a.id),
      totals: [visible.length, rows.length, files],
      stack: (a: string) => {
        const row = assets.find((x) => x.id === a)!;
        const s = stackOf(row.item);
        if (!s) return { item: null, row: null };
        const members = s.members.filter((m) => comps(m).length > 0);
        const primary = (m: string) => primaryOf.get(m)!;
        return {
          item: { stack_id: s.id, member_count: members.length, is_cover: row.item === cover(s) },
          row: mode === 'collapsed' ? { stack_id: s.id, cover: { media_item_id: cover(s), primary_asset_id: primary(cover(s)) }, matched_members: matched.get(s.id)!, members: members.map((m) => ({ media_item_id: m, primary_asset_id: primary(m) })) } : null,
        };
      },
      files: (a: string) => comps(assets.find((x) => x.id === a)!.item).length,
    };
  }

  const body = (f: Filter) => ({
    ...(f.type ? { type: f.type } : {}),
    ...(f.liked !== undefined ? { liked: f.liked } : {}),
    ...(f.rating !== undefined ? { rating: f.rating } : {}),
    ...(f.camera_model ? { camera_model: f.camera_model } : {}),
    ...(f.is_deleted !== undefined ? { is_deleted: f.is_deleted } : {}),
    ...(f.composition ? { media_item: { composition: f.composition } } : {}),
    ...(f.membership || f.kinds ? { stack: { ...(f.membership ? { membership: f.membership } : {}), ...(f.kinds ? { kinds: f.kinds } : {}) } } : {}),
    ...(f.from !== undefined || f.to !== undefined
      ? { date: { ...(f.from !== undefined ? { from: new Date(f.from).toISOString() } : {}), ...(f.to !== undefined ? { to: new Date(f.to).toISOString() } : {}) } }
      : {}),
  });

  async function all(f: Filter, sort: 'recently_added' | 'date_captured', mode: 'collapsed' | 'expanded'): Promise<{ items: Item[]; first: List }> {
    const out: Item[] = [];
    let first: List | null = null;
    for (let offset = 0; ; offset += 200) {
      const r = await alice.post(`${V1}/assets/query`, { filter: body(f), sort_by: sort, stack_mode: mode, pagination: { limit: 200, offset } });
      assert.equal(r.status, 200, r.text);
      const l = data<List>(alice, r);
      first ??= l;
      out.push(...l.items);
      if (l.items.length < 200) break;
    }
    return { items: out, first: first! };
  }

  const FILTERS: Filter[] = [
    {},
    { is_deleted: true },
    { type: 'VIDEO' },
    { type: 'PHOTO', liked: false },
    { liked: true },
    { rating: 3 },
    { rating: 0, is_deleted: true },
    { camera_model: 'Beta' },
    { composition: 'contains_raw' },
    { composition: 'jpeg_raw' },
    { composition: 'raw_unpaired' },
    { composition: 'no_raw' },
    { composition: 'live_photo' },
    { composition: 'raw_unpaired', is_deleted: true },
    { membership: 'stacked' },
    { membership: 'unstacked' },
    { kinds: ['burst'] },
    { membership: 'unstacked', kinds: ['manual'] },
    { from: 1_000_200_000_000, to: 1_000_700_000_000 },
    { camera_model: 'Alpha', membership: 'stacked', is_deleted: false },
  ];

  for (const f of FILTERS) {
    test(`matches the model: ${JSON.stringify(f)}`, async () => {
      for (const sort of ['recently_added', 'date_captured'] as const) {
        for (const mode of ['collapsed', 'expanded'] as const) {
          const m = model(aliceId, f, sort, mode);
          const { items, first } = await all(f, sort, mode);
          const what = `${JSON.stringify(f)} ${sort} ${mode}`;
          assert.deepEqual(items.map((i) => i.media_item.primary_asset.asset_id), m.ids, `rows and order: ${what}`);
          assert.deepEqual([first.total_visible, first.total_media_items, first.total_files], m.totals, `totals: ${what}`);
          for (const i of items) {
            const id = i.media_item.primary_asset.asset_id;
            const s = m.stack(id);
            assert.deepEqual(i.media_item.stack && { stack_id: i.media_item.stack.stack_id, member_count: i.media_item.stack.member_count, is_cover: i.media_item.stack.is_cover }, s.item, `media_item.stack of ${id}: ${what}`);
            assert.deepEqual(i.stack && { stack_id: i.stack.stack_id, cover: i.stack.cover, matched_members: i.stack.matched_members, members: i.stack.members }, s.row, `stack row of ${id}: ${what}`);
            assert.equal(i.media_item.composition.component_count, m.files(id), `files of ${id}: ${what}`);
          }
        }
      }
    });
  }

  test('the synthetic catalog has what the model test needs', () => {
    const lib = model(aliceId, {}, 'recently_added', 'collapsed');
    assert.ok(lib.ids.length > 500);
    assert.ok(lib.totals[0]! < lib.totals[1]!, 'stacks collapse');
    assert.ok(lib.totals[1]! < lib.totals[2]!, 'multi-file items');
    const split = new Set(assets.filter((a) => a.del === 1).map((a) => a.item));
    assert.ok(assets.some((a) => a.del === 0 && a.position > 0 && split.has(a.item)), 'some items are split across the Trash');
    assert.ok(model(aliceId, { composition: 'raw_unpaired' }, 'recently_added', 'expanded').ids.length > 10);
  });

  test('odd page sizes walk the list exactly once', async () => {
    const { items } = await all({}, 'date_captured', 'collapsed');
    const seen: string[] = [];
    for (let offset = 0; offset < items.length + 37; offset += 37) {
      const r = await alice.post(`${V1}/assets/query`, { sort_by: 'date_captured', pagination: { limit: 37, offset } });
      seen.push(...data<List>(alice, r).items.map((i) => i.media_item.primary_asset.asset_id));
    }
    assert.deepEqual(seen, items.map((i) => i.media_item.primary_asset.asset_id));
  });

  test('stays exact while the catalog changes: trash, likes, new files and pairs, relinked and deleted files, stack edits', async () => {
    const r = rng(7);
    const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
    const now = Date.now();
    let n = 100_000;
    const stackOf = (item: string) => stacks.find((s) => s.members.includes(item));
    const dropEmptyItem = (item: string) => {
      if (assets.some((a) => a.item === item)) return;
      catalog.pruneEmptyMediaItems(); // this item is the only empty one; its stack membership goes with it
      const s = stackOf(item);
      if (s) s.members = s.members.filter((m) => m !== item);
      itemKind.delete(item);
    };
    const newAsset = (item: string, position: number, relation: string, raw: boolean) => {
      n++;
      const a: A = { id: uuid(9, n), owner: aliceId, del: 0, type: 'PHOTO', liked: 0, rating: 0, upload: 1_800_000_000_000 + n, taken: 1_000_000_000_000 + n * 7, camera: 'Beta', raw, item, position, relation, name: `N${n}.${raw ? 'NEF' : 'JPG'}` };
      catalog.asset({
        asset_id: a.id,
        owner_id: a.owner,
        repository_id: REPO,
        storage_path: `new/${a.name}`,
        original_filename: a.name,
        mime_type: raw ? 'image/x-nikon-nef' : 'image/jpeg',
        file_size: 1,
        upload_time: a.upload,
        taken_time: a.taken,
        specific_metadata: JSON.stringify({ camera_model: 'Beta', is_raw: raw }),
        created_at: now,
      });
      if (position === 0 && !itemKind.has(item)) {
        catalog.mediaItem(aliceId, 'photo', [{ asset_id: a.id, relation }], item);
        itemKind.set(item, 'photo');
        primaryOf.set(item, a.id);
      } else {
        catalog.component(item, a.id, position, relation);
      }
      assets.push(a);
    };
    const mine = () => assets.filter((a) => a.owner === aliceId);
    const mutations: (() => void)[] = [
      () => {
        const a = pick(mine());
        a.del = a.del ? 0 : 1;
        catalog.change(a.id, { is_deleted: a.del, deleted_at: a.del ? now : null });
      },
      () => {
        const a = pick(mine());
        a.liked = a.liked ? 0 : 1;
        a.rating = Math.floor(r() * 6);
        catalog.change(a.id, { liked: a.liked, rating: a.rating });
      },
      () => newAsset(uuid(8, n + 1), 0, 'original', false),
      () => {
        // A RAW joins a single JPEG: a new pair.
        const single = pick(mine().filter((a) => !a.raw && a.type === 'PHOTO' && assets.filter((b) => b.item === a.item).length === 1));
        newAsset(single.item, 1, 'raw_original', true);
      },
      () => {
        // A file leaves its item and joins another one at its end (relinking).
        const a = pick(mine().filter((x) => x.position > 0 || assets.filter((b) => b.item === x.item).length === 1));
        const to = pick(mine().filter((x) => x.item !== a.item && x.position === 0)).item;
        const from = a.item;
        a.item = to;
        a.position = Math.max(...assets.filter((b) => b.item === to && b !== a).map((b) => b.position)) + 1;
        catalog.component(to, a.id, a.position, a.relation);
        dropEmptyItem(from);
      },
      () => {
        // A file deleted from the catalog (its component goes with it).
        const a = pick(mine());
        assets.splice(assets.indexOf(a), 1);
        catalog.removeAsset(a.id);
        dropEmptyItem(a.item);
      },
      () => {
        // Two files of an item swap places: the other one now stands for it.
        const multi = [...new Set(mine().filter((a) => a.position > 0).map((a) => a.item))];
        if (!multi.length) return;
        const parts = assets.filter((a) => a.item === pick(multi)).sort((x, y) => x.position - y.position);
        const [x, y] = [parts[0]!, parts[parts.length - 1]!];
        [x.position, y.position] = [y.position, x.position];
        catalog.component(y.item, y.id, y.position, y.relation);
        catalog.component(x.item, x.id, x.position, x.relation);
      },
      () => {
        // A new manual stack of two unstacked items.
        const free = [...new Set(mine().map((a) => a.item))].filter((i) => !stackOf(i));
        const [p, q] = [pick(free), pick(free)];
        if (p === q) return;
        const st: S = { id: uuid(7, ++n), kind: 'manual', cover: r() < 0.5 ? q : null, members: [p, q] };
        catalog.stack({ stack_id: st.id, owner_id: aliceId, stack_kind: 'manual', members: st.members, cover_media_item_id: st.cover });
        stacks.push(st);
      },
      () => {
        // A member leaves its stack, or the cover changes, or the stack goes.
        const st = pick(stacks.filter((x) => x.members.length > 0 && ownerOfItem(x.members[0]!) === aliceId));
        const u = r();
        if (u < 0.4) {
          const m = pick(st.members);
          st.members = st.members.filter((x) => x !== m);
          catalog.unstack(m);
        } else if (u < 0.8) {
          st.cover = pick(st.members);
          catalog.stackCover(st.id, st.cover);
        } else {
          stacks.splice(stacks.indexOf(st), 1);
          catalog.removeStack(st.id);
        }
      },
    ];
    const ownerOfItem = (item: string) => assets.find((a) => a.item === item)?.owner;
    const CHECKS: [Filter, 'recently_added' | 'date_captured', 'collapsed' | 'expanded'][] = [
      [{}, 'recently_added', 'collapsed'],
      [{}, 'date_captured', 'expanded'],
      [{ is_deleted: true }, 'recently_added', 'collapsed'],
      [{ membership: 'stacked' }, 'date_captured', 'collapsed'],
      [{ composition: 'raw_unpaired' }, 'recently_added', 'expanded'],
      [{ liked: true }, 'recently_added', 'collapsed'],
    ];
    for (let round = 0; round < 30; round++) {
      for (let k = 0; k < 1 + Math.floor(r() * 4); k++) pick(mutations)();
      for (const [f, sort, mode] of CHECKS) {
        const m = model(aliceId, f, sort, mode);
        const { items, first } = await all(f, sort, mode);
        const what = `round ${round}: ${JSON.stringify(f)} ${sort} ${mode}`;
        assert.deepEqual(items.map((i) => i.media_item.primary_asset.asset_id), m.ids, `rows and order: ${what}`);
        assert.deepEqual([first.total_visible, first.total_media_items, first.total_files], m.totals, `totals: ${what}`);
        for (const i of items) {
          const id = i.media_item.primary_asset.asset_id;
          const s = m.stack(id);
          assert.deepEqual(i.media_item.stack && { stack_id: i.media_item.stack.stack_id, member_count: i.media_item.stack.member_count, is_cover: i.media_item.stack.is_cover }, s.item, `media_item.stack of ${id}: ${what}`);
          assert.deepEqual(i.stack && { stack_id: i.stack.stack_id, cover: i.stack.cover, matched_members: i.stack.matched_members, members: i.stack.members }, s.row, `stack row of ${id}: ${what}`);
        }
      }
    }
  });
});

/**
 * Tags over HTTP on a real catalog (corpus photos through the real ingest path): adding by name
 * (shared, case-insensitive names; idempotent; manual source), listing and removing per asset,
 * summaries and search counted over the caller's own assets in the library only, paging bounds,
 * ownership (another user's asset: 404; another member's tags never shown) and bad input (422 naming
 * the field).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { indexInto, settle } from '../stacks/helpers.ts';
import { catalogOf } from '../helpers/factories.ts';

type Link = { tag_id: number; tag_name: string; source: string; confidence: number };
type Summary = { tag_id: number; tag_name: string; source: string; asset_count: number; cover_asset_id: string; last_used_at: string };

describe('tags', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  const ids = {} as Record<'a1' | 'a2' | 'a3' | 'b1', string>;

  const tagsOf = async (c: Client, assetId: string): Promise<Link[]> => {
    const r = await c.get(`${V1}/assets/${assetId}/tags`);
    assert.equal(r.status, 200, r.text);
    return data(c, r).tags;
  };
  const addTag = async (c: Client, assetId: string, name: string): Promise<Link> => {
    const r = await c.post(`${V1}/assets/${assetId}/tags`, { tag_name: name });
    assert.equal(r.status, 200, r.text);
    return data(c, r);
  };
  const summaries = async (c: Client, qs = ''): Promise<{ tags: Summary[]; limit: number; offset: number; total: number }> => {
    const r = await c.get(`${V1}/assets/tag-summaries${qs}`);
    assert.equal(r.status, 200, r.text);
    return data(c, r);
  };
  const search = async (c: Client, qs = ''): Promise<{ tag_id: number; tag_name: string; asset_count: number }[]> => {
    const r = await c.get(`${V1}/assets/tags${qs}`);
    assert.equal(r.status, 200, r.text);
    return data(c, r).tags;
  };
  const field = async (r: Promise<{ status: number }> | { status: number }, c: Client, name: string) => {
    const res = (await r) as Parameters<typeof problem>[1];
    assert.equal(res.status, 422, res.text);
    const p = problem(c, res);
    assert.ok(p.errors?.some((e) => e.field === name), `${name} in ${JSON.stringify(p.errors)}`);
  };

  before(async () => {
    srv = await startServer();
    alice = new Client(srv.url);
    const a = (await registerAdmin(alice)).session.user.user_id;
    bob = new Client(srv.url);
    const b = (await addMember(alice, bob, 'bob')).session.user.user_id;
    ids.a1 = await indexInto(srv, 'exif/Canon_40D.jpg', 'tags/Canon_40D.jpg', a);
    ids.a2 = await indexInto(srv, 'exif/Nikon_D70.jpg', 'tags/Nikon_D70.jpg', a);
    ids.a3 = await indexInto(srv, 'exif/Pentax_K10D.jpg', 'tags/Pentax_K10D.jpg', a);
    ids.b1 = await indexInto(srv, 'exif/Sony_DSLR-A200.jpg', 'tags/Sony_DSLR-A200.jpg', b);
    await settle(srv);
  });
  after(() => srv.stop({ removeData: true }));

  test('add by name: created once, shared case-insensitively, manual with confidence 1, idempotent', async () => {
    assert.deepEqual(await tagsOf(alice, ids.a1), []);
    const beach = await addTag(alice, ids.a1, 'Beach');
    assert.equal(beach.tag_name, 'Beach');
    assert.equal(beach.source, 'manual');
    assert.equal(beach.confidence, 1);
    assert.ok(Number.isInteger(beach.tag_id));
    const again = await addTag(alice, ids.a2, '  beach ');
    assert.deepEqual(again, beach, 'resolved by name, trimmed, case-insensitively: the first spelling stays');
    assert.deepEqual(await addTag(alice, ids.a1, 'BEACH'), beach, 'adding again changes nothing');
    assert.deepEqual(await tagsOf(alice, ids.a1), [beach]);
    const bobs = await addTag(bob, ids.b1, 'beach');
    assert.equal(bobs.tag_id, beach.tag_id, 'names are shared across the household');
    await addTag(alice, ids.a1, 'Été à la mer');
    assert.deepEqual((await tagsOf(alice, ids.a1)).map((t) => t.tag_name), ['Beach', 'Été à la mer'], 'sorted by name');
    const long = 'x'.repeat(100);
    assert.equal((await addTag(alice, ids.a3, long)).tag_name, long, '100 characters is fine');
    assert.equal(srv.container.db.prepare("SELECT count(*) FROM tags WHERE tag_name = 'beach'").pluck().get(), 1);
  });

  test('a machine tag confirmed by hand becomes manual', async () => {
    // A classifier's tags (no operation writes them): through the catalog factory.
    const now = Date.now();
    const cat = catalogOf(srv.container.db);
    const id = cat.tagAsset(ids.a2, 'Sunset', 'zeroshot', 0.7, now);
    cat.tagAsset(ids.a3, 'Sunset', 'zeroshot', 0.9, now + 1);
    assert.deepEqual((await tagsOf(alice, ids.a2)).find((t) => t.tag_id === id), { tag_id: id, tag_name: 'Sunset', source: 'zeroshot', confidence: 0.7 });
    assert.deepEqual(await addTag(alice, ids.a2, 'sunset'), { tag_id: id, tag_name: 'Sunset', source: 'manual', confidence: 1 });
  });

  test('summaries: per tag and source, over the caller’s library only, filtered and paged', async () => {
    const all = await summaries(alice);
    assert.equal(all.limit, 50);
    assert.equal(all.offset, 0);
    const byKey = new Map(all.tags.map((t) => [`${t.tag_name}/${t.source}`, t]));
    const beach = byKey.get('Beach/manual')!;
    assert.equal(beach.asset_count, 2, 'bob’s beach photo is not counted');
    assert.ok([ids.a1, ids.a2].includes(beach.cover_asset_id));
    assert.ok(!Number.isNaN(Date.parse(beach.last_used_at)) && beach.last_used_at.endsWith('Z'));
    assert.equal(byKey.get('Sunset/manual')!.asset_count, 1);
    assert.equal(byKey.get('Sunset/zeroshot')!.asset_count, 1);
    assert.equal(byKey.get('Sunset/zeroshot')!.cover_asset_id, ids.a3);
    assert.equal(all.total, all.tags.length);
    assert.equal(all.tags[0]!.tag_name, 'Beach', 'most used first');

    const bobs = await summaries(bob);
    assert.deepEqual(bobs.tags.map((t) => [t.tag_name, t.asset_count, t.cover_asset_id]), [['Beach', 1, ids.b1]]);

    assert.deepEqual((await summaries(alice, '?source=zeroshot')).tags.map((t) => t.tag_name), ['Sunset']);
    assert.deepEqual((await summaries(alice, '?q=SUN')).tags.map((t) => `${t.tag_name}/${t.source}`).sort(), ['Sunset/manual', 'Sunset/zeroshot']);
    assert.deepEqual((await summaries(alice, '?q=%25')).tags, [], 'LIKE wildcards are literal');
    const repo = srv.container.repositories.primary()!.repository_id;
    assert.equal((await summaries(alice, `?repository_id=${repo}`)).total, all.total);
    assert.equal((await summaries(alice, '?repository_id=00000000-0000-7000-8000-000000000000')).total, 0);

    assert.equal(all.total, 5);
    const paged: Summary[] = [];
    for (let offset = 0; offset < all.total; offset += 2) {
      const page = await summaries(alice, `?limit=2&offset=${offset}`);
      assert.equal(page.total, all.total);
      assert.equal(page.tags.length, Math.min(2, all.total - offset));
      paged.push(...page.tags);
    }
    assert.deepEqual(paged.map((t) => t.tag_id + t.source), all.tags.map((t) => t.tag_id + t.source), 'every row once across pages');
    assert.deepEqual((await summaries(alice, '?offset=1000')).tags, []);
    assert.equal((await summaries(alice, '?limit=200')).limit, 200);

    await field(alice.get(`${V1}/assets/tag-summaries?limit=0`), alice, 'query.limit');
    await field(alice.get(`${V1}/assets/tag-summaries?limit=201`), alice, 'query.limit');
    await field(alice.get(`${V1}/assets/tag-summaries?offset=-1`), alice, 'query.offset');
    await field(alice.get(`${V1}/assets/tag-summaries?source=robot`), alice, 'query.source');
    await field(alice.get(`${V1}/assets/tag-summaries?repository_id=nope`), alice, 'query.repository_id');

    // Trash is not counted.
    srv.container.db.prepare('UPDATE assets SET is_deleted = 1, deleted_at = ? WHERE asset_id = ?').run(Date.now(), ids.a2);
    const trashed = new Map((await summaries(alice)).tags.map((t) => [`${t.tag_name}/${t.source}`, t]));
    assert.equal(trashed.get('Beach/manual')!.asset_count, 1);
    assert.equal(trashed.get('Beach/manual')!.cover_asset_id, ids.a1);
    assert.equal(trashed.has('Sunset/manual'), false);
    srv.container.db.prepare('UPDATE assets SET is_deleted = 0, deleted_at = NULL WHERE asset_id = ?').run(ids.a2);
  });

  test('search: only the caller’s tags, names starting with q first, limit', async () => {
    await addTag(bob, ids.b1, 'Secret party');
    await addTag(alice, ids.a3, 'Seabeach');
    const found = await search(alice, '?q=bea');
    assert.deepEqual(found.map((t) => t.tag_name), ['Beach', 'Seabeach'], 'prefix match first');
    assert.equal(found[0]!.asset_count, 2);
    assert.deepEqual(await search(alice, '?q=secret'), [], 'another member’s tag names are never suggested');
    assert.deepEqual((await search(bob, '?q=secret')).map((t) => t.tag_name), ['Secret party']);
    const everything = await search(alice);
    assert.ok(everything.length >= 4 && everything.length <= 20, JSON.stringify(everything));
    assert.equal((await search(alice, '?limit=1')).length, 1);
    await field(alice.get(`${V1}/assets/tags?limit=0`), alice, 'query.limit');
    await field(alice.get(`${V1}/assets/tags?limit=101`), alice, 'query.limit');
  });

  test('remove: 200 then 404 when not linked; an unused name disappears', async () => {
    const links = await tagsOf(alice, ids.a1);
    const beach = links.find((t) => t.tag_name === 'Beach')!;
    let r = await alice.req('DELETE', `${V1}/assets/${ids.a1}/tags/${beach.tag_id}`);
    assert.equal(r.status, 200, r.text);
    assert.match(data(alice, r).message, /Beach/);
    assert.ok(!(await tagsOf(alice, ids.a1)).some((t) => t.tag_id === beach.tag_id));
    r = await alice.req('DELETE', `${V1}/assets/${ids.a1}/tags/${beach.tag_id}`);
    assert.equal(r.status, 404);
    assert.equal(problem(alice, r).code, 'tag_not_linked');
    assert.equal((await tagsOf(bob, ids.b1)).some((t) => t.tag_id === beach.tag_id), true, 'bob keeps his link');

    const secret = (await tagsOf(bob, ids.b1)).find((t) => t.tag_name === 'Secret party')!;
    r = await bob.req('DELETE', `${V1}/assets/${ids.b1}/tags/${secret.tag_id}`);
    assert.equal(r.status, 200);
    assert.equal(srv.container.db.prepare('SELECT count(*) FROM tags WHERE tag_id = ?').pluck().get(secret.tag_id), 0, 'no asset uses it: the name is gone');

    r = await alice.req('DELETE', `${V1}/assets/${ids.a1}/tags/999999`);
    assert.equal(r.status, 404);
    await field(alice.req('DELETE', `${V1}/assets/${ids.a1}/tags/abc`), alice, 'path.tagId');
    await field(alice.req('DELETE', `${V1}/assets/${ids.a1}/tags/0`), alice, 'path.tagId');
  });

  test('another user’s asset answers 404 for every tag operation, admins included', async () => {
    const bobLink = (await tagsOf(bob, ids.b1))[0]!;
    for (const [c, method, p, body] of [
      [bob, 'GET', `/assets/${ids.a1}/tags`, undefined],
      [bob, 'POST', `/assets/${ids.a1}/tags`, { tag_name: 'mine now' }],
      [bob, 'DELETE', `/assets/${ids.a3}/tags/1`, undefined],
      [alice, 'GET', `/assets/${ids.b1}/tags`, undefined],
      [alice, 'POST', `/assets/${ids.b1}/tags`, { tag_name: 'x' }],
      [alice, 'DELETE', `/assets/${ids.b1}/tags/${bobLink.tag_id}`, undefined],
      [alice, 'GET', '/assets/00000000-0000-7000-8000-000000000000/tags', undefined],
    ] as const) {
      const r = await c.req(method, `${V1}${p}`, body ? { json: body } : {});
      assert.equal(r.status, 404, `${method} ${p}: ${r.text}`);
      assert.equal(problem(c, r).code, 'asset_not_found');
    }
    assert.deepEqual(await tagsOf(bob, ids.b1), [bobLink], 'nothing changed');
    assert.equal(srv.container.db.prepare("SELECT count(*) FROM tags WHERE tag_name = 'mine now'").pluck().get(), 0);
    const anon = new Client(srv.url);
    assert.equal((await anon.get(`${V1}/assets/tag-summaries`)).status, 401);
    assert.equal((await anon.get(`${V1}/assets/tags`)).status, 401);
  });

  test('bad tag names and bodies answer 422 naming body.tag_name', async () => {
    for (const name of ['', '   ', 'x'.repeat(101), 'tab\there', 'bell\u0007', 'line\u2028sep']) {
      await field(alice.post(`${V1}/assets/${ids.a1}/tags`, { tag_name: name }), alice, 'body.tag_name');
    }
    await field(alice.post(`${V1}/assets/${ids.a1}/tags`, {}), alice, 'body.tag_name');
    await field(alice.post(`${V1}/assets/${ids.a1}/tags`, { tag_name: 5 }), alice, 'body.tag_name');
    await field(alice.post(`${V1}/assets/${ids.a1}/tags`, { tag_name: 'ok', source: 'zeroshot' }), alice, 'body');
    await field(alice.get(`${V1}/assets/not-a-uuid/tags`), alice, 'path.id');
    assert.ok(!(await tagsOf(alice, ids.a1)).some((t) => t.tag_name.trim() === ''), 'nothing was added');
  });

  test('variant B envelopes tag answers', async () => {
    const b = new Client(srv.url, 'B');
    b.token = alice.token;
    const r = await b.get(`${V1}/assets/${ids.a3}/tags`);
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(data(b, r).tags));
    const p = await b.post(`${V1}/assets/${ids.a3}/tags`, { tag_name: '' });
    assert.equal(p.status, 422);
    assert.equal(problem(b, p).errors?.[0]?.field, 'body.tag_name');
  });
});

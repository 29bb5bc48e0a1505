/**
 * The permission matrix, extended to sharing: every operation of the SERVED OpenAPI document called
 * by the household roles sharing gives, with the owner's real ids (requests.ts builds the calls):
 * - album viewer and album contributor (members of the owner's album holding the owner's photo);
 * - partner (the owner shares their library with them, shown in their timeline);
 * - link holder (no account: the key of a public link to the owner's album).
 * Checks, per operation and role:
 * - no answer is a 500; every error is application/problem+json with a code;
 * - what the role cannot read answers 404 `<resource>_not_found` (an album to a partner);
 * - what it can read, it reads (GET: no 401/403/404 for the shared resource);
 * - it changes nothing of the owner's: a change to a shared resource is 403 `*_read_only`; only a
 *   like or rating (each member's own) succeeds;
 * - the link holder reads every public operation of the link, and no answer to it names the
 *   owner's asset ids, the owner, the members or the repository's path; the link's key opens no
 *   member operation (401);
 * - what the owner reads of their own data is the same after every role's calls.
 * New operations are covered without new code (see permission-matrix.test.ts for the member roles).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { addMember, registerAdmin, V1 } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { indexFiles } from '../albums/helpers.ts';
import { buildRequest, operationsOf, type BuiltRequest, type DocOperation, type Ids } from './requests.ts';
import { seedOwnedKinds } from './owned-seeds.ts';
import { seedAgentKinds } from './agent-seeds.ts';
import { KeyRing } from '../../../server/src/platform/crypto/keys.ts';
import { notFoundCode } from './judge.ts';

type Role = 'album viewer' | 'album contributor' | 'partner' | 'link holder';
const ROLES: Role[] = ['album viewer', 'album contributor', 'partner', 'link holder'];
const SESSION_ENDING = new Set(['logout', 'refreshSession', 'changeMyPassword', 'completePasswordChange']);
/** Each member's own marks: the one change a reader may make. */
const MARKS = new Set(['updateAssetLike', 'updateAssetRating', 'updateAssetRatingAndLike']);
/** What each role may read of the owner's: the shared photo (asset) and the album. */
const READS: Record<Exclude<Role, 'link holder'>, Set<string>> = {
  'album viewer': new Set(['asset', 'album']),
  'album contributor': new Set(['asset', 'album']),
  partner: new Set(['asset']),
};

interface Answer {
  status: number;
  type: string;
  text: string;
  json: any;
}

describe('permission matrix: sharing roles', () => {
  let srv: TestServer;
  let doc: Parameters<typeof operationsOf>[0];
  let ops: DocOperation[];
  let ids: Ids;
  let owner: Client;
  const clients = {} as Record<Exclude<Role, 'link holder'>, Client>;
  const tried = new Map<string, Map<Role, number>>();
  let secrets: string[];
  let snapshot: Map<string, string>;
  /** The link's video, for getSharedLinkVideo (every other photo operation takes the photo). */
  let linkVideo: string;

  before(async () => {
    srv = await startServer();
    const admin = new Client(srv.url);
    await registerAdmin(admin);
    owner = new Client(srv.url);
    const olive = await addMember(admin, owner, 'olive');
    const people: Record<string, number> = {};
    for (const [role, name] of [['album viewer', 'veravale'], ['album contributor', 'coracove'], ['partner', 'patpond']] as const) {
      const c = new Client(srv.url);
      people[name] = (await addMember(admin, c, name)).session.user.user_id;
      clients[role] = c;
    }
    const tess = (await addMember(admin, new Client(srv.url), 'tess')).session.user.user_id;
    const oliveId = olive.session.user.user_id as number;
    const assets = await indexFiles(srv, { o1: 'exif/Canon_40D.jpg', o2: 'exif/Canon_DIGITAL_IXUS_400.jpg', v1: 'video/iphone5_gps.mov' }, oliveId);
    const photo = assets.o1!;
    const ok = async (r: Promise<{ status: number; body: any; text: string }>) => {
      const x = await r;
      assert.ok(x.status < 300, x.text);
      return x.body;
    };
    const album = await ok(owner.post(`${V1}/albums`, { album_name: 'Olive family album' }));
    await ok(owner.post(`${V1}/albums/${album.album_id}/assets/${photo}`, {}));
    // A video too: the link's video operation plays a video of the link (a photo is 404 wrong_asset_type).
    await ok(owner.post(`${V1}/albums/${album.album_id}/assets/${assets.v1}`, {}));
    await ok(owner.post(`${V1}/albums/${album.album_id}/members`, { user_id: people.veravale, role: 'viewer' }));
    await ok(owner.post(`${V1}/albums/${album.album_id}/members`, { user_id: people.coracove, role: 'contributor' }));
    const share = await ok(owner.post(`${V1}/partner-shares`, { partner_user_id: people.patpond }));
    await ok(clients.partner.put(`${V1}/partner-shares/${share.share_id}`, { show_in_timeline: true }));
    const link = await ok(owner.post(`${V1}/share-links`, { album_id: album.album_id }));
    const linked = (await new Client(srv.url).get(`${V1}/shared/${link.key}/photos`)).body.photos as { photo_id: string; type: string }[];
    const linkPhoto = linked.find((p) => p.type !== 'VIDEO')!.photo_id;
    linkVideo = linked.find((p) => p.type === 'VIDEO')!.photo_id;

    // The owner's people, faces, photo event, duplicate group and place (owned-seeds.ts), and their events as the
    // events job makes them now (not mid-run, from the debounced rebuild the indexing queued): all owner-only.
    const repositoryId = srv.container.repositories.primary()!.repository_id;
    const seeds = seedOwnedKinds(srv.container.db, { userId: oliveId, assetIds: [assets.o1!, assets.o2!], repositoryId, mark: 'olive-private', sealKey: KeyRing.fromFile(path.join(srv.container.config.dataDir, 'secret.key')).key('cloud-credential') });
    await ok(owner.patch(`${V1}/events/rebuild-state`, { rebuild: true }));
    await srv.container.jobRunner.whenIdle();
    seeds.photo_event = srv.container.db.prepare("SELECT event_id FROM photo_events WHERE owner_id = ? AND status = 'active' ORDER BY start_at").pluck().all(oliveId) as string[];
    assert.ok(seeds.photo_event.length > 0, 'the rebuild made an event of the photos');
    // The assistant, on: olive's conversation, its ref, a pin and an album waiting for her yes (owner-only).
    const agent = await seedAgentKinds(admin, owner, 'olive-private');
    const itemOf = (id: string) => srv.container.db.prepare('SELECT media_item_id FROM assets WHERE asset_id = ?').pluck().get(id) as string;

    doc = (await new Client(srv.url).get('/api/openapi.json')).body;
    ops = operationsOf(doc);
    ids = {
      byKind: {
        asset: [photo],
        album: [album.album_id],
        // Someone who is not the caller: a removal is never the caller leaving.
        member: [tess],
        user: [tess],
        shared: [link.key],
        photo: [linkPhoto],
        repository: [repositoryId],
        ...seeds,
        ...agent,
        // Media items (`at_media_item_id`, `{mediaItemId}`): the owner's photos', so a split or a removal is real.
        item: [itemOf(assets.o1!), itemOf(assets.o2!)],
      },
      file: fs.readFileSync(path.join(CORPUS, 'exif/Canon_40D.jpg')),
      hash: crypto.randomBytes(32).toString('hex'),
    };
    const repo = srv.container.repositories.primary()!;
    // Names and ids of the household, and any owner field at all: none is a visitor's business.
    secrets = [...Object.values(assets), ...Object.keys(people), 'olive', repo.path, repo.repository_id, 'o1/', '"owner_id"', '"user_id"', '"added_by"'];
    snapshot = await ownerView();
  });
  after(() => srv.stop({ removeData: true }));

  for (const role of ROLES) {
    test(`every operation as ${role}`, async () => {
      const failures: string[] = [];
      for (const o of ordered(ops)) {
        if (SESSION_ENDING.has(o.op.operationId)) continue;
        const req = buildRequest(doc, o, o.op.operationId === 'getSharedLinkVideo' ? { ...ids, byKind: { ...ids.byKind, photo: [linkVideo] } } : ids);
        const a = await send(role === 'link holder' ? null : clients[role], req, o.streams);
        const count = tried.get(o.op.operationId) ?? new Map<Role, number>();
        count.set(role, a.status);
        tried.set(o.op.operationId, count);
        failures.push(...judge(role, o, a).map((f) => `${role} ${o.method} ${req.url} → ${a.status}: ${f}\n    ${a.text.slice(0, 300)}`));
      }
      assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.join('\n')}`);
    });
  }

  test("what the owner reads of their own data is unchanged by every sharing role's calls", async () => {
    await srv.container.jobRunner.whenIdle();
    const now = await ownerView();
    const changed = [...snapshot].filter(([k, v]) => now.get(k) !== v).map(([k, v]) => `${k}\n  before: ${v.slice(0, 300)}\n  after:  ${now.get(k)?.slice(0, 300)}`);
    assert.ok(snapshot.size >= 10, `${snapshot.size} owner reads`);
    assert.deepEqual(changed, [], changed.join('\n'));
  });

  test('summary: operations × sharing roles tried', () => {
    const rows = [...tried].map(([id, byRole]) => `${id.padEnd(34)} ${ROLES.map((r) => String(byRole.get(r) ?? '-').padStart(6)).join(' ')}`);
    console.log(`sharing matrix: ${tried.size} operations × ${ROLES.length} roles\n${''.padEnd(34)} ${ROLES.map((r) => r.slice(0, 6).padStart(6)).join(' ')}\n${rows.join('\n')}`);
    assert.equal(tried.size, ops.filter((o) => !SESSION_ENDING.has(o.op.operationId)).length);
    const publicOps = ops.filter((o) => o.op['x-hearth-access'] === 'public' && o.path.startsWith('/api/v1/shared/'));
    assert.ok(publicOps.length >= 6, 'the public link operations are in the document');
  });

  function judge(role: Role, o: DocOperation, a: Answer): string[] {
    const f: string[] = [];
    const access = o.op['x-hearth-access'];
    const code: string | undefined = a.json?.code;
    if (a.status >= 500 && a.status !== 503) f.push('a server error');
    if (a.status >= 400) {
      if (!a.type.startsWith('application/problem+json')) f.push(`error of type ${a.type}, not application/problem+json`);
      else if (typeof code !== 'string') f.push('a problem without a code');
    }
    if (role === 'link holder') {
      if (access !== 'public') {
        if (a.status !== 401) f.push('a link is not an account: 401 expected');
        return f;
      }
      if (o.path.startsWith('/api/v1/shared/') && o.method === 'GET' && a.status >= 400) f.push('the link holder could not read the link');
      for (const s of secrets) if (a.text.includes(s)) f.push(`the answer to the link holder names ${JSON.stringify(s)}`);
      return f;
    }
    if (access === 'public' || access === 'admin') return f;
    if (a.status === 401) f.push('a signed-in member was refused');
    const kinds = [...new Set(o.owned.values())];
    if (kinds.length === 0) return f;
    const unreadable = kinds.filter((k) => !READS[role].has(k));
    if (unreadable.length) {
      if (a.status !== 404 || !unreadable.map(notFoundCode).includes(code!)) f.push(`cannot read the owner's ${unreadable.join(', ')}: 404 expected`);
      return f;
    }
    if (a.status === 404 && kinds.map(notFoundCode).includes(code!)) f.push('a shared resource was not found');
    if (o.method === 'GET') {
      if (a.status === 403) f.push('a shared resource could not be read');
      return f;
    }
    if (MARKS.has(o.op.operationId)) {
      if (a.status >= 300) f.push('a reader may like and rate (their own marks)');
      return f;
    }
    if (a.status < 400) f.push("a reader changed the owner's shared resource");
    else if (a.status === 403 && !/_read_only$/.test(code ?? '')) f.push(`403 ${code}, expected *_read_only`);
    return f;
  }

  /**
   * The owner's reads of their shared things (GETs naming them) and of their albums and links. Not
   * listPartnerShares: the partner may end a share they receive, and does in its turn.
   */
  async function ownerView(): Promise<Map<string, string>> {
    const view = new Map<string, string>();
    const lists = new Set(['listAlbums', 'listShareLinks']);
    for (const o of ops) {
      if (o.method !== 'GET' || o.streams || o.op['x-hearth-access'] !== 'user' || (o.owned.size === 0 && !lists.has(o.op.operationId))) continue;
      const req = buildRequest(doc, o, ids);
      const a = await send(owner, req, false);
      view.set(o.op.operationId, `${a.status} ${a.status >= 400 ? a.json?.code : a.text}`);
    }
    return view;
  }

  async function send(client: Client | null, req: BuiltRequest, streams: boolean): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (req.contentType) headers['content-type'] = req.contentType;
    if (!streams) {
      const c = client ?? new Client(srv.url);
      const r = await c.req(req.method, req.url, { body: req.body, headers });
      return { status: r.status, type: r.headers.get('content-type') ?? '', text: r.text, json: typeof r.body === 'object' ? r.body : null };
    }
    if (client?.token) headers.authorization = `Bearer ${client.token}`;
    const abort = new AbortController();
    const res = await fetch(`${srv.url}${req.url}`, { method: req.method, headers, body: req.body, signal: abort.signal });
    const type = res.headers.get('content-type') ?? '';
    const text = res.status >= 400 ? await res.text() : '';
    abort.abort();
    return { status: res.status, type, text, json: text && type.includes('json') ? JSON.parse(text) : null };
  }
});

/** GETs first, then other changes, then deletes (deepest path first). */
function ordered(ops: DocOperation[]): DocOperation[] {
  const rank = (o: DocOperation) => (o.method === 'GET' ? 0 : o.method === 'DELETE' ? 2 : 1);
  return [...ops].sort((a, b) => rank(a) - rank(b) || (rank(a) === 2 ? b.path.split('/').length - a.path.split('/').length : 0));
}

/**
 * The permission matrix: every operation of the SERVED OpenAPI document, called as anonymous, as another
 * member, as an administrator and as the owner, with the owner's real ids (assets, album, tag, upload
 * session, receipts, the repository, a job, a user, and the people, faces, photo event, duplicate group
 * and place owned-seeds.ts writes) put into paths, queries and bodies (requests.ts).
 * Each answer is checked against what the operation declares (`x-hearth-access` on the operation,
 * `x-hearth-owner-scoped` on a path parameter):
 * - no answer is a 500, and every error is a problem with a `code`: application/problem+json in response
 *   variant A (and from file and stream operations in both), in variant B (`X-Api-Variant: B`) the
 *   envelope `{code: <status>, data: <problem>, error: <problem code>, message}`, whose JSON successes
 *   are enveloped too (`code: 0`);
 * - anonymous gets 401 from everything but the public operations;
 * - members get 403 `admin_only` from administrators' operations;
 * - another member and the administrator get 404 `<resource>_not_found` for every owner-scoped resource
 *   of the owner's (router.ts OWNED_RESOURCES: asset, album, person, face, photo event, duplicate group,
 *   place) named in the path, and a refusal naming the resource (404 or 422 `<resource>_not_found`) for
 *   one named only in a marked body field, so its existence does not leak, while the owner is not told
 *   it is missing (the ids are real);
 * - no answer to someone else names the owner's assets, album, upload session or receipts;
 * - what the owner reads of their own data is the same after everyone else's calls.
 * Calls that end the caller's session run last in each role; the others' turns come before the
 * owner's, and the owner's deletes come last, so each answer is about data that exists.
 * New operations are covered without new code: only values a schema cannot give are in requests.ts.
 * The whole matrix runs once per response variant, each on its own server (the owner's turn deletes
 * and the session-ending calls leave nothing for a second pass).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { addMember, registerAdmin, V1 } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { OWNED_RESOURCES } from '../../../server/src/platform/http/router.ts';
import { buildRequest, operationsOf, type BuiltRequest, type DocOperation, type Ids } from './requests.ts';
import { seedOwnedKinds } from './owned-seeds.ts';
import { seedAgentKinds } from './agent-seeds.ts';
import { startRcloneWebdav, type RcloneWebdav } from '../helpers/rclone-webdav.ts';
import { KeyRing } from '../../../server/src/platform/crypto/keys.ts';
import { foreignRefusal, notFoundCode } from './judge.ts';

type Role = 'anonymous' | 'other member' | 'administrator' | 'owner';
const ROLES: Role[] = ['anonymous', 'other member', 'administrator', 'owner'];
/** Operations that end or change the caller's own session: last in each role's turn. */
const SESSION_ENDING = new Set(['logout', 'refreshSession', 'changeMyPassword', 'completePasswordChange']);
/** Marks in the owner's names and texts: an answer to anyone else must never contain them. */
const SECRET = `olive-private-${crypto.randomBytes(4).toString('hex')}`;

type Variant = 'A' | 'B';

interface Answer {
  status: number;
  type: string;
  text: string;
  json: unknown;
  /** The problem document of an error (in B, the envelope's `data`), or what is wrong with its shape. */
  problem: { code?: unknown } | null;
  shape: string[];
}

for (const variant of ['A', 'B'] as const) describe(`permission matrix (variant ${variant})`, () => {
  let srv: TestServer;
  let dav: RcloneWebdav;
  let davDir: string;
  let doc: Parameters<typeof operationsOf>[0];
  let ops: DocOperation[];
  let ids: Ids;
  const clients = {} as Record<Role, Client>;
  const tried = new Map<string, Map<Role, number>>();
  /** Strings that name the owner's private things (asset, media item, stack, session, receipt ids, names). */
  const secrets = new Set<string>([SECRET]);
  const ownerAlbums = new Set<number>();
  let snapshot: Map<string, string>;

  before(async () => {
    srv = await startServer();
    // The owner's WebDAV connection (owned-seeds.ts) points at a real WebDAV server, so its calls get real answers.
    davDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-matrix-dav-'));
    dav = await startRcloneWebdav({ dir: davDir, user: 'family', pass: SECRET });
    const admin = new Client(srv.url);
    await registerAdmin(admin);
    const owner = new Client(srv.url);
    const olive = await addMember(admin, owner, 'olive');
    const other = new Client(srv.url);
    await addMember(admin, other, 'mallory');
    // A throwaway account for the operations that take a user id (reset access revokes its sessions).
    const tess = await addMember(admin, new Client(srv.url), 'tess');
    // Set up in variant A; the matrix speaks `variant` with the same accounts.
    const speaking = (c: Client) => {
      const twin = Object.assign(new Client(srv.url, variant), { token: c.token });
      if (variant === 'A') for (const [k, v] of c.cookies) twin.cookies.set(k, v); // A's refresh cookie (B never has one)
      return twin;
    };
    Object.assign(clients, { anonymous: new Client(srv.url, variant), 'other member': speaking(other), administrator: speaking(admin), owner: speaking(owner) });

    const doc0 = await new Client(srv.url).get('/api/openapi.json');
    assert.equal(doc0.status, 200);
    doc = doc0.body;
    ops = operationsOf(doc);

    // The owner's library, made through the API: two photos, an album, a tag, a stack, a like, an upload session.
    const photos = ['exif/Canon_40D.jpg', 'exif/Canon_DIGITAL_IXUS_400.jpg'].map((rel) => fs.readFileSync(path.join(CORPUS, rel)));
    const uploads = [];
    for (const [i, bytes] of photos.entries()) uploads.push(await upload(owner, bytes, `${SECRET}-${i}.jpg`));
    await srv.container.jobRunner.whenIdle();
    const assetIds = uploads.map((u) => u.asset_id as string);
    const album = ok(await owner.post(`${V1}/albums`, { album_name: `${SECRET} album`, description: SECRET }));
    ownerAlbums.add(album.album_id);
    ok(await owner.post(`${V1}/albums/${album.album_id}/assets/${assetIds[0]}`, {}));
    const tag = ok(await owner.post(`${V1}/assets/${assetIds[0]}/tags`, { tag_name: 'matrix-tag' }));
    const stack = ok(await owner.post(`${V1}/assets/stacks`, { asset_ids: assetIds }));
    ok(await owner.put(`${V1}/assets/${assetIds[0]}/rating-and-like`, { liked: true, rating: 4 }));
    ok(await owner.put(`${V1}/assets/${assetIds[0]}/description`, { description: SECRET }));
    const session = ok(await owner.post(`${V1}/uploads/sessions`, { filename: `${SECRET}-chunked.jpg`, total_size: 10, total_chunks: 1 }));
    await srv.container.jobRunner.whenIdle();
    const job = ok(await admin.get(`${V1}/jobs?limit=1`)).jobs[0];
    assert.ok(job, 'the uploads queued jobs');

    // People and faces (no face model runs here), an event, a duplicate group and a place: owned-seeds.ts.
    const repositoryId = srv.container.repositories.primary()!.repository_id;
    const seeds = seedOwnedKinds(srv.container.db, { userId: olive.session.user.user_id, assetIds, repositoryId, mark: SECRET, sealKey: KeyRing.fromFile(path.join(srv.container.config.dataDir, 'secret.key')).key('cloud-credential'), davUrl: dav.url });
    // The owner's events as the events job makes them of these photos and their seeded place, now: the debounced
    // rebuild the uploads queued would otherwise retitle the event in the middle of the other roles' turns.
    ok(await owner.patch(`${V1}/events/rebuild-state`, { rebuild: true }));
    await srv.container.jobRunner.whenIdle();
    seeds.photo_event = srv.container.db
      .prepare("SELECT event_id FROM photo_events WHERE owner_id = ? AND status = 'active' ORDER BY start_at")
      .pluck()
      .all(olive.session.user.user_id) as string[];
    assert.ok(seeds.photo_event.length > 0, 'the rebuild made an event of the photos');
    for (const id of [...seeds.photo_event, ...seeds.duplicate_group]) secrets.add(id);

    // The assistant, turned on: the owner's conversation, its ref, a pin and an album waiting for a yes.
    const agent = await seedAgentKinds(admin, owner, SECRET);
    for (const id of [...agent.agent_thread, ...agent.agent_pin, ...agent.agent_effect]) secrets.add(id);

    for (const id of assetIds) secrets.add(id);
    for (const a of assetIds) secrets.add(ok(await owner.get(`${V1}/assets/${a}`)).media_item_id);
    secrets.add(stack.stack_id);
    secrets.add(session.session_id);
    for (const u of uploads) secrets.add(u.receipt_id);
    ids = {
      byKind: {
        asset: assetIds,
        album: [album.album_id],
        tag: [tag.tag_id],
        repository: [repositoryId],
        job: [job.id],
        user: [tess.session.user.user_id],
        session: [session.session_id],
        receipt: [uploads[0].receipt_id],
        ...seeds,
        ...agent,
        // Media items (`at_media_item_id`, `{mediaItemId}`): the owner's photos', so a split or a removal is real.
        item: assetIds.map((id) => srv.container.db.prepare('SELECT media_item_id FROM assets WHERE asset_id = ?').pluck().get(id) as string),
      },
      file: photos[0]!,
      hash: uploads[0].content_hash,
    };
  });
  after(async () => {
    await srv.stop({ removeData: true });
    await dav?.close();
    fs.rmSync(davDir, { recursive: true, force: true });
  });

  test('the served document declares the access of every operation and the owner scope of every own-resource parameter', () => {
    assert.ok(ops.length > 50, `${ops.length} operations`);
    for (const o of ops) {
      assert.ok(['public', 'user', 'admin', 'media'].includes(o.op['x-hearth-access']), `${o.op.operationId} declares no access`);
      // A parameter named after a private resource (…/assets/{id}, /people/{id}) must say it is owner-scoped.
      for (const [name, kind] of o.kinds) {
        if ((OWNED_RESOURCES as readonly string[]).includes(kind) && o.op['x-hearth-access'] !== 'admin') {
          assert.equal(o.owned.get(name), kind, `${o.op.operationId}: path parameter ${name} names a ${kind}; declare it with ownedPathParam`);
        }
      }
    }
    // Every owner-scoped kind is declared somewhere, and the matrix holds a real id of it to substitute.
    const declared = new Set(ops.flatMap((o) => [...o.owned.values(), ...o.ownedBody.values()]));
    for (const kind of OWNED_RESOURCES) {
      assert.ok(declared.has(kind), `no operation declares a ${kind} id owner-scoped`);
      assert.ok(ids.byKind[kind]?.length, `the matrix has no ${kind} of the owner's to try`);
    }
  });

  for (const role of ROLES) {
    test(`every operation as ${role}`, async () => {
      if (role === 'owner') snapshot ??= new Map(); // the others' turns took the snapshot first
      else if (!snapshot) snapshot = await ownerView();
      const failures: string[] = [];
      for (const o of ordered(ops)) {
        const req = buildRequest(doc, o, ids);
        const answer = await send(role === 'anonymous' ? null : clients[role], req, o.streams);
        const count = tried.get(o.op.operationId) ?? new Map<Role, number>();
        count.set(role, answer.status);
        tried.set(o.op.operationId, count);
        failures.push(...[...answer.shape, ...judge(role, o, req, answer)].map((f) => `${role} ${o.method} ${req.url} → ${answer.status}: ${f}\n    ${answer.text.slice(0, 300)}`));
      }
      assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.join('\n')}`);
    });

    if (role === 'administrator') {
      test("what the owner reads of their own data is unchanged by everyone else's calls", async () => {
        await srv.container.jobRunner.whenIdle();
        const now = await ownerView();
        const changed = [...snapshot].filter(([k, v]) => now.get(k) !== v).map(([k, v]) => `${k}\n  before: ${v.slice(0, 400)}\n  after:  ${now.get(k)?.slice(0, 400)}`);
        assert.ok(snapshot.size > 10, `${snapshot.size} owner reads`);
        assert.deepEqual(changed, [], changed.join('\n'));
      });
    }
  }

  test('summary: operations × roles tried', () => {
    const rows = [...tried].map(([id, byRole]) => `${id.padEnd(34)} ${ROLES.map((r) => String(byRole.get(r) ?? '-').padStart(5)).join(' ')}`);
    console.log(`permission matrix (variant ${variant}): ${tried.size} operations × ${ROLES.length} roles = ${tried.size * ROLES.length} calls\n${''.padEnd(34)} ${ROLES.map((r) => r.slice(0, 5).padStart(5)).join(' ')}\n${rows.join('\n')}`);
    assert.equal(tried.size, ops.length);
    for (const [id, byRole] of tried) assert.equal(byRole.size, ROLES.length, `${id} was not tried by every role`);
  });

  // ------------------------------------------------------------------ checks

  function judge(role: Role, o: DocOperation, req: BuiltRequest, a: Answer): string[] {
    const f: string[] = [];
    const access = o.op['x-hearth-access'];
    if (a.status >= 500 && a.status !== 503) f.push('a server error');
    const code = a.problem?.code as string | undefined;
    if (role === 'anonymous') {
      if (access !== 'public' && a.status !== 401) f.push(`anonymous must get 401 (access ${access})`);
      return f;
    }
    if (access === 'admin') {
      if (role !== 'administrator' && (a.status !== 403 || code !== 'admin_only')) f.push('a member must get 403 admin_only');
      if (role === 'administrator' && [401, 403].includes(a.status)) f.push('the administrator was refused');
      return f;
    }
    if (access === 'public') return f;
    // Other 403s are answers about the request (a wrong current password), not about who asks.
    if (a.status === 401 || (a.status === 403 && code === 'admin_only')) f.push('a signed-in member was refused');
    if (role === 'owner') {
      const notFound = [...new Set([...o.owned.values(), ...o.ownedBody.values()])].map(notFoundCode);
      if ([404, 422].includes(a.status) && notFound.includes(code!)) f.push("the owner's own resource was not found: the matrix used a wrong id");
      return f;
    }
    f.push(...foreignRefusal(o, a.status, code));
    if (a.status < 400) f.push(...leaks(a, req));
    return f;
  }

  /**
   * What in an answer to someone else names the owner's private things. An id the caller sent itself
   * and finds echoed (a batch upload's `single_{id}` result) tells nothing new.
   */
  function leaks(a: Answer, req?: BuiltRequest): string[] {
    const sent = `${req?.url ?? ''} ${req?.body?.toString('latin1') ?? ''}`;
    const found = [...secrets].filter((s) => a.text.includes(s) && !sent.includes(s)).map((s) => `the answer names the owner's ${s}`);
    // In B the envelope's `data` is walked like A's whole answer (an album id there is the same leak).
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (/album_id$/.test(k) && ownerAlbums.has(x as number)) found.push(`the answer names the owner's album ${x}`);
          walk(x);
        }
      }
    };
    walk(a.json);
    return found;
  }

  /**
   * What the owner reads of their own data (GETs, not streams): the reads of their own resources and
   * the reads that name their private things, as text by operation (a file by its digest, a problem by
   * its status and code). Shared facts (a repository's scans, the job queue) may change meanwhile.
   */
  async function ownerView(): Promise<Map<string, string>> {
    const view = new Map<string, string>();
    for (const o of ops) {
      if (o.method !== 'GET' || o.streams || o.op['x-hearth-access'] === 'public' || o.op['x-hearth-access'] === 'admin') continue;
      const req = buildRequest(doc, o, ids);
      const a = await send(clients.owner, req, false);
      if (o.owned.size === 0 && leaks(a).length === 0) continue;
      const shown = a.status >= 400 ? a.problem?.code : a.type.startsWith('application/json') ? a.text : crypto.createHash('sha256').update(a.text).digest('hex');
      view.set(o.op.operationId, `${a.status} ${shown}`);
    }
    return view;
  }

  async function send(client: Client | null, req: BuiltRequest, streams: boolean): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (req.contentType) headers['content-type'] = req.contentType;
    if (!streams) {
      const c = client ?? new Client(srv.url, variant);
      const r = await c.req(req.method, req.url, { body: req.body, headers });
      return shaped(variant, r.status, r.headers.get('content-type') ?? '', r.text, typeof r.body === 'object' ? r.body : null);
    }
    // An event stream never ends: its status and type are the answer; an error body is read whole.
    headers['x-api-variant'] = variant;
    if (client?.token) headers.authorization = `Bearer ${client.token}`;
    const abort = new AbortController();
    const res = await fetch(`${srv.url}${req.url}`, { method: req.method, headers, body: req.body, signal: abort.signal });
    const type = res.headers.get('content-type') ?? '';
    let text = '';
    if (res.status >= 400) text = await res.text();
    abort.abort();
    return shaped(variant, res.status, type, text, text && type.includes('json') ? JSON.parse(text) : null);
  }
});

const PROBLEM_TYPE = 'application/problem+json';

/**
 * An answer with its problem document found where its variant puts it, and whatever is wrong with its
 * shape: an error that is not a problem with a `code`, a B envelope that does not say the status and the
 * problem's code, a B success that is not enveloped. File and stream operations answer problem+json
 * in both variants (the server leaves them unwrapped).
 */
function shaped(variant: Variant, status: number, type: string, text: string, json: unknown): Answer {
  const shape: string[] = [];
  const a: Answer = { status, type, text, json, problem: null, shape };
  const isProblem = (p: unknown): p is { code: string } => {
    const x = p as Record<string, unknown> | null;
    return !!x && typeof x.code === 'string' && x.status === status && typeof x.type === 'string' && typeof x.title === 'string';
  };
  const envelope = json as { code?: unknown; data?: unknown; error?: unknown; message?: unknown } | null;
  const enveloped = !!envelope && typeof envelope === 'object' && Object.keys(envelope).sort().join() === 'code,data,error,message';
  if (status < 400) {
    if (variant === 'B' && type.startsWith('application/json') && (!enveloped || envelope.code !== 0 || envelope.error !== '')) shape.push('a JSON success in B that is not enveloped with code 0');
    return a;
  }
  if (type.startsWith(PROBLEM_TYPE)) {
    a.problem = json as Answer['problem'];
    if (!isProblem(json)) shape.push('a problem without a code (or status, type, title)');
  } else if (variant === 'B' && type.startsWith('application/json') && enveloped) {
    a.problem = envelope.data as Answer['problem'];
    if (!isProblem(envelope.data)) shape.push('a B error envelope whose data is not a problem with a code');
    else if (envelope.code !== status || envelope.error !== envelope.data.code) shape.push(`a B error envelope saying code ${String(envelope.code)} / error ${String(envelope.error)}`);
  } else {
    shape.push(`error of type ${type}, not ${variant === 'A' ? PROBLEM_TYPE : `a B envelope or ${PROBLEM_TYPE}`}`);
  }
  return a;
}

/**
 * GETs first, then other changes, then deletes (deepest path first), then what ends the caller's session,
 * logout last of all (in B, with no refresh cookie to stop it, it ends the bearer session outright).
 */
function ordered(ops: DocOperation[]): DocOperation[] {
  const rank = (o: DocOperation) =>
    o.op.operationId === 'logout' ? 4 : SESSION_ENDING.has(o.op.operationId) ? 3 : o.method === 'GET' ? 0 : o.method === 'DELETE' ? 2 : 1;
  return [...ops].sort((a, b) => rank(a) - rank(b) || (rank(a) === 2 ? b.path.split('/').length - a.path.split('/').length : 0));
}

function ok(r: { status: number; body: any; text: string }): any {
  assert.ok(r.status >= 200 && r.status < 300, `${r.status} ${r.text}`);
  return r.body;
}

async function upload(client: Client, bytes: Buffer, name: string): Promise<any> {
  const boundary = `matrix-${crypto.randomBytes(6).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return ok(await client.req('POST', `${V1}/uploads/files`, { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }));
}

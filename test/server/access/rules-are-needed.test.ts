/**
 * Each owner-only rule of the access layer is what keeps a member out of another's people, faces, photo
 * events, duplicate groups, cloud connections, import runs, Takeout uploads, host actions and the assistant's conversations and pins: with the rule swapped for `1=1` (rules.ts swapRuleForTest), the matrix's
 * judge (judge.ts, the same check permission-matrix.test.ts applies to every answer) finds another member
 * let through by at least one operation of that kind; with the rule back, by none. A rule a hand check
 * elsewhere still backs up would leave the judge silent here, and this test would fail.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Access } from '../../../server/src/platform/access/index.ts';
import type { AccessKind } from '../../../server/src/platform/access/permitted.ts';
import { swapRuleForTest } from '../../../server/src/platform/access/rules.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { addMember, registerAdmin } from '../helpers/api.ts';
import { catalogOf } from '../helpers/factories.ts';
import { buildRequest, operationsOf, type DocOperation, type Ids } from './requests.ts';
import { seedOwnedKinds } from './owned-seeds.ts';
import { seedAgentKinds } from './agent-seeds.ts';
import { KeyRing } from '../../../server/src/platform/crypto/keys.ts';
import { foreignRefusal } from './judge.ts';

// `agent_effect` is left out: an effect is only ever reached within its conversation (getAgentEffectStatus
// takes `thread_id` and checks it first), so the thread's rule answers before the effect's would.
const KINDS = ['person', 'face', 'photo_event', 'duplicate_group', 'cloud_credential', 'import_run', 'takeout_upload', 'host_action', 'agent_thread', 'agent_pin'] as const satisfies readonly AccessKind[];

describe('the owner-only rules are needed', () => {
  let srv: TestServer;
  let doc: Parameters<typeof operationsOf>[0];
  let ops: DocOperation[];
  let ids: Ids;
  let mallory: Client;
  let malloryId: number;

  before(async () => {
    srv = await startServer();
    const admin = new Client(srv.url);
    await registerAdmin(admin);
    const oliveClient = new Client(srv.url);
    const olive = await addMember(admin, oliveClient, 'olive');
    mallory = new Client(srv.url);
    malloryId = (await addMember(admin, mallory, 'mallory')).session.user.user_id;
    doc = (await new Client(srv.url).get('/api/openapi.json')).body;
    ops = operationsOf(doc);
    // Olive's two photos as catalog rows: what is tried here is who reaches the rows, not the media.
    const db = srv.container.db;
    const repositoryId = srv.container.repositories.primary()!.repository_id;
    const ownerId = olive.session.user.user_id;
    const catalog = catalogOf(db);
    const assetIds = [0, 1].map(() => catalog.asset({ owner_id: ownerId, repository_id: repositoryId }));
    const seeds = seedOwnedKinds(db, { userId: ownerId, assetIds, repositoryId, mark: 'olive-private', sealKey: KeyRing.fromFile(path.join(srv.container.config.dataDir, 'secret.key')).key('cloud-credential') });
    // `item`: a media item id for a split's body, so the body is valid and the event's rule is what answers.
    const agent = await seedAgentKinds(admin, oliveClient, 'olive-private');
    ids = { byKind: { asset: assetIds, repository: [repositoryId], item: [crypto.randomUUID()], ...seeds, ...agent }, file: Buffer.alloc(0), hash: '0'.repeat(64) };
  });
  after(() => srv.stop({ removeData: true }));

  /** What the judge says about every operation naming a `kind` of olive's in its path, called by mallory. */
  async function verdicts(kind: AccessKind): Promise<string[]> {
    const found: string[] = [];
    for (const o of ops.filter((x) => x.op['x-hearth-access'] !== 'admin' && [...x.owned.values()].includes(kind) && !x.streams)) {
      const req = buildRequest(doc, o, ids);
      const r = await mallory.req(req.method, req.url, { body: req.body, headers: req.contentType ? { 'content-type': req.contentType } : {} });
      const code = (r.body as { code?: string } | null)?.code;
      found.push(...foreignRefusal(o, r.status, code).map((f) => `${o.op.operationId} → ${r.status}: ${f}`));
    }
    return found;
  }

  for (const kind of KINDS) {
    test(`${kind}: without its rule another member gets through; with it, no one does`, async () => {
      const access = new Access(srv.container.db);
      const own = ids.byKind[kind]!.slice(0, 1) as never[];
      assert.deepEqual(access.permitted({ userId: malloryId }, kind, own, 'read'), [], 'the rule keeps mallory out');
      assert.deepEqual(await verdicts(kind), [], 'with the rule, every foreign call is refused as not found');

      const restore = swapRuleForTest(kind, () => '1=1');
      try {
        assert.equal(access.permitted({ userId: malloryId }, kind, own, 'read').length, 1, 'the swapped rule lets mallory read it');
        const failures = await verdicts(kind);
        assert.ok(failures.length > 0, `without the ${kind} rule the judge must find a foreign member let through`);
      } finally {
        restore();
      }
      assert.deepEqual(access.permitted({ userId: malloryId }, kind, own, 'read'), [], 'the rule is back');
    });
  }
});

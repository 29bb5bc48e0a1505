/**
 * Paging parameters come from one module (platform/http/pagination.ts): every paged operation of the
 * document generated from the routes states the bounds its schema enforces, and over real HTTP the
 * bounds hold (422 problem, as every invalid request) and the default applies, in both variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { currentDocumentText } from '../../scripts/gen-api.ts';
import { V1, data, problem, registerAdmin } from './helpers/api.ts';
import { Client, startServer, type TestServer } from './helpers/server.ts';

type Param = { name: string; in: string; description?: string; schema: { minimum?: number; maximum?: number; default?: number; type?: string } };

describe('paging parameters in the OpenAPI document', () => {
  const doc = JSON.parse(currentDocumentText()) as { paths: Record<string, Record<string, { operationId: string; parameters?: Param[] }>> };
  const paged = Object.values(doc.paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => op.parameters?.some((p) => p.in === 'query' && (p.name === 'offset' || p.name === 'cursor')));

  test('the paged operations are the ones we know', () => {
    const ids = paged.map((op) => op.operationId).sort();
    for (const id of ['listAlbums', 'listJobs', 'listTagSummaries', 'listUsers', 'listLikedAssets', 'listAssetsByRating', 'listRepositoryScans', 'getMapPoints']) {
      assert.ok(ids.includes(id), `${id} pages (found: ${ids.join(', ')})`);
    }
  });

  test('each states its bounds and default as its schema enforces them', () => {
    for (const op of paged) {
      const limit = op.parameters!.find((p) => p.name === 'limit');
      assert.ok(limit, `${op.operationId} has a limit`);
      assert.equal(limit.schema.type, 'integer', op.operationId);
      assert.equal(limit.schema.minimum, 1, op.operationId);
      assert.ok(typeof limit.schema.maximum === 'number', `${op.operationId}: limit has a maximum`);
      assert.match(limit.description ?? '', new RegExp(` per page, 1\\.\\.${limit.schema.maximum}\\. Default \\d+\\.$`), op.operationId);
      if (limit.schema.default !== undefined) assert.match(limit.description!, new RegExp(`Default ${limit.schema.default}\\.$`), op.operationId);
      const offset = op.parameters!.find((p) => p.name === 'offset');
      if (offset) {
        assert.equal(offset.schema.minimum, 0, op.operationId);
        assert.match(offset.description ?? '', / to skip\. Default 0\.$/, op.operationId);
      }
    }
  });
});

for (const variant of ['A', 'B'] as const) {
  describe(`paging over HTTP, variant ${variant}`, () => {
    let srv: TestServer;
    let admin: Client;
    before(async () => {
      srv = await startServer();
      admin = new Client(srv.url, variant);
      await registerAdmin(admin);
    });
    after(() => srv.stop({ removeData: true }));

    test('limit and offset default, and out-of-bounds values are refused as problems', async () => {
      const page = data(admin, await admin.get(`${V1}/users`));
      assert.equal(page.limit, 20);
      assert.equal(page.offset, 0);
      for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'limit=ten']) {
        const r = await admin.get(`${V1}/users?${bad}`);
        assert.equal(r.status, 422, bad);
        assert.ok(problem(admin, r).code, bad);
      }
      const last = data(admin, await admin.get(`${V1}/users?limit=100&offset=1`));
      assert.equal(last.limit, 100);
      assert.equal(last.offset, 1);
    });

    test('the jobs list pages by cursor with its own default', async () => {
      const page = data(admin, await admin.get(`${V1}/jobs`));
      assert.equal(page.limit, 50);
      const r = await admin.get(`${V1}/jobs?limit=201`);
      assert.equal(r.status, 422);
      assert.ok(problem(admin, r).code);
    });
  });
}

/**
 * Template data folders (test/template/build.ts), which data-only tests copy instead of ingesting the
 * corpus themselves: the manifest names the household and assets the copy really holds, the template
 * was left with no work pending, a copy starts without re-processing anything, and copies are
 * independent of each other and of the template (one's change is not another's; no row of a copy
 * points into the template's folder). Both response variants.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ensureTemplate, type TemplateManifest } from '../template/build.ts';
import { RECIPES } from '../template/recipes.ts';
import { V1, data } from './helpers/api.ts';
import { startServer, templateClient, type TestServer } from './helpers/server.ts';

const RECIPE = RECIPES.queryLanguage;
/** Jobs that are still work to do (a scheduled, future job such as the next periodic scan is not). */
const PENDING = "state IN ('available', 'running', 'retryable')";

describe('template data folders', { timeout: 600_000 }, () => {
  let template: { dir: string; manifest: TemplateManifest };
  let one: TestServer;
  let two: TestServer;

  before(async () => {
    template = await ensureTemplate(RECIPE);
    one = await startServer({ template: RECIPE });
    two = await startServer({ template: RECIPE });
  });
  after(async () => {
    await one?.stop({ removeData: true });
    await two?.stop({ removeData: true });
  });

  test('the template was left idle: no job pending, the WAL checkpointed, every asset processed', () => {
    const db = new Database(path.join(template.dir, 'catalog.sqlite3'), { readonly: true });
    try {
      assert.equal((db.prepare(`SELECT count(*) AS n FROM jobs WHERE ${PENDING}`).get() as { n: number }).n, 0);
      const states = db.prepare('SELECT asset_id, state FROM assets').all() as { asset_id: string; state: string }[];
      assert.deepEqual(states.map((s) => s.asset_id).sort(), Object.values(template.manifest.assets).sort());
      assert.ok(states.every((s) => s.state !== 'pending' && s.state !== 'processing'), JSON.stringify(states));
    } finally {
      db.close();
    }
    assert.equal(fs.existsSync(path.join(template.dir, 'catalog.sqlite3-wal')) ? fs.statSync(path.join(template.dir, 'catalog.sqlite3-wal')).size : 0, 0);
  });

  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: the manifest's users sign in as themselves and see the manifest's assets`, async () => {
      const alice = await templateClient(one, 'alice', variant);
      const me = data(alice, await alice.get(`${V1}/auth/me`));
      assert.equal(me.user_id ?? me.user?.user_id, template.manifest.users.alice!.id);
      for (const [key, id] of Object.entries(template.manifest.assets)) {
        const r = await alice.get(`${V1}/assets/${id}`);
        assert.equal(r.status, 200, `${key}: ${r.text}`);
        assert.equal(data(alice, r).asset_id ?? data(alice, r).id, id);
      }
    });
  }

  test('a copy starts without re-processing: its start-up scan finds every file unchanged', async () => {
    await one.container.jobRunner.whenIdle();
    const processed = one.container.db
      .prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'assets.process-asset'")
      .get() as { n: number };
    const db = new Database(path.join(template.dir, 'catalog.sqlite3'), { readonly: true });
    try {
      assert.equal(processed.n, (db.prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'assets.process-asset'").get() as { n: number }).n);
    } finally {
      db.close();
    }
  });

  test("copies are independent: one's change is not the other's nor the template's, and no row names the template", async () => {
    const id = template.manifest.assets.canon!;
    const a1 = await templateClient(one, 'alice');
    const a2 = await templateClient(two, 'alice');
    assert.equal((await a1.put(`${V1}/assets/${id}/rating`, { rating: 3 })).status, 200);
    assert.equal(data(a1, await a1.get(`${V1}/assets/${id}`)).rating, 3);
    assert.notEqual(data(a2, await a2.get(`${V1}/assets/${id}`)).rating, 3);
    const db = new Database(path.join(template.dir, 'catalog.sqlite3'), { readonly: true });
    try {
      assert.notEqual((db.prepare('SELECT rating FROM assets WHERE asset_id = ?').get(id) as { rating: number | null }).rating, 3);
    } finally {
      db.close();
    }
    for (const srv of [one, two]) {
      const repos = srv.container.db.prepare('SELECT path FROM repositories').all() as { path: string }[];
      assert.ok(repos.length > 0 && repos.every((r) => r.path.startsWith(srv.dataDir)), JSON.stringify(repos));
      srv.container.db.pragma('wal_checkpoint(TRUNCATE)');
      const bytes = fs.readFileSync(path.join(srv.dataDir, 'catalog.sqlite3')).toString('latin1');
      assert.ok(!bytes.includes(template.manifest.builtAt), `${srv.dataDir}'s catalog names the template's folder`);
      assert.ok(!bytes.includes(template.dir), `${srv.dataDir}'s catalog names the template's cache folder`);
    }
  });
});

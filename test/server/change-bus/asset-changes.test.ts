/**
 * The asset event bus (platform/change-bus, features/assets/asset-changes.ts) through the real ingest path,
 * pipeline and asset API: each change emits its event once, inside the transaction of the change, so a
 * subscriber's follow-up commits with it or not at all.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { AssetChanges } from '../../../server/src/features/assets/asset-changes.ts';
import { V1 } from '../helpers/api.ts';
import { addFile, household, repoPath, silentWav, type Household } from '../assets/fixture.ts';

type Seen = { event: keyof AssetChanges; asset_id: string; inTransaction: boolean; detail: Record<string, unknown> };

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('asset events', () => {
  let h: Household;
  const seen: Seen[] = [];
  before(async () => {
    h = await household();
    const { assetChanges: events, db } = h.srv.container;
    for (const event of ['asset.ingested', 'asset.ready', 'asset.trashed', 'asset.restored', 'asset.moved'] as const) {
      events.on(event, 'test recorder', (e) => {
        const { asset_id, ...detail } = e as unknown as { asset_id: string } & Record<string, unknown>;
        seen.push({ event, asset_id, inTransaction: db.inTransaction, detail });
      });
    }
  });
  after(() => h.srv.stop());

  const of = (assetId: string) => seen.filter((s) => s.asset_id === assetId);

  it('emits ingested, then ready once the pipeline is done, inside their transactions', async () => {
    const id = await addFile(h.srv, 'ev/one.wav', h.ownerId, silentWav());
    await until(() => of(id).some((s) => s.event === 'asset.ready'), 'asset.ready');
    const got = of(id);
    assert.deepEqual(got.map((s) => s.event), ['asset.ingested', 'asset.ready']);
    assert.ok(got.every((s) => s.inTransaction));
    assert.equal(got[0]!.detail.source, 'scan');
    assert.equal(got[0]!.detail.replaced, false);
    assert.equal(got[0]!.detail.owner_id, h.ownerId);
    assert.equal(typeof got[1]!.detail.media_item_id, 'string');
  });

  it('emits trashed and restored for the owner’s Trash, and nothing for a refused request', async () => {
    const id = await addFile(h.srv, 'ev/two.wav', h.ownerId, silentWav(0.6));
    const before = of(id).length;
    assert.equal((await h.other.req('DELETE', `${V1}/assets/${id}`)).status, 404);
    assert.equal(of(id).length, before, 'another member’s refused delete emits nothing');
    assert.equal((await h.owner.req('DELETE', `${V1}/assets/${id}`)).status, 200);
    assert.equal((await h.owner.post(`${V1}/assets/${id}/restore`, {})).status, 200);
    const tail = of(id).slice(before).map((s) => [s.event, s.detail.reason]);
    assert.deepEqual(tail.filter(([e]) => e !== 'asset.ready'), [['asset.trashed', 'user'], ['asset.restored', undefined]]);
  });

  it('emits moved for a file moved inside its repository, and trashed (missing) for a file gone', async () => {
    const id = await addFile(h.srv, 'ev/three.wav', h.ownerId, silentWav(0.7));
    const { ingest, repositories } = h.srv.container;
    const repositoryId = repositories.primary()!.repository_id;
    fs.mkdirSync(repoPath(h.srv, 'ev/moved'), { recursive: true });
    fs.renameSync(repoPath(h.srv, 'ev/three.wav'), repoPath(h.srv, 'ev/moved/three.wav'));
    const r = await ingest.indexFile({ repositoryId, relPath: 'ev/moved/three.wav', ownerId: h.ownerId, source: 'watch' });
    assert.equal(r.outcome, 'moved');
    const moved = of(id).find((s) => s.event === 'asset.moved');
    assert.deepEqual([moved?.detail.from, moved?.detail.to], ['ev/three.wav', 'ev/moved/three.wav']);

    fs.rmSync(repoPath(h.srv, 'ev/moved/three.wav'));
    assert.equal(ingest.markMissing(repositoryId, 'ev/moved/three.wav'), true);
    assert.deepEqual(of(id).filter((s) => s.event === 'asset.trashed').map((s) => s.detail.reason), ['missing']);
  });

  it('rolls the change back when a subscriber cannot record its follow-up', async () => {
    const id = await addFile(h.srv, 'ev/four.wav', h.ownerId, silentWav(0.8));
    const { assetChanges: events, assets } = h.srv.container;
    let failing = true;
    events.on('asset.trashed', 'failing follow-up', () => {
      if (failing) throw new Error('disk full');
    });
    const actor = { userId: h.ownerId, username: 'alice', role: 'admin' as const, sessionId: 't', via: 'bearer' as const };
    assert.throws(() => assets.delete(actor, id), /failing follow-up subscriber of asset\.trashed failed: disk full/);
    const row = h.srv.container.db.prepare('SELECT is_deleted FROM assets WHERE asset_id = ?').get(id) as { is_deleted: number };
    assert.equal(row.is_deleted, 0, 'the asset is not in the Trash: the change and its follow-up go together');
    failing = false;
    assets.delete(actor, id);
  });

  it('refuses an event emitted outside a transaction', () => {
    assert.throws(
      () => h.srv.container.assetChanges.emit('asset.restored', { asset_id: 'x', owner_id: 1, repository_id: 'r' }),
      /inside the transaction/,
    );
  });

  it('stack detection subscribes to asset.ready; the pipeline does not know it', () => {
    assert.deepEqual(h.srv.container.assetChanges.listeners()['asset.ready']?.slice(0, 1), ['stacks']);
    const pipeline = fs.readFileSync(new URL('../../../server/src/features/assets/pipeline/pipeline.ts', import.meta.url), 'utf8');
    assert.doesNotMatch(pipeline, /features\/stacks|\.\.\/stacks\//);
  });
});

/**
 * The camera make filter ("all Canon photos"), consistent with the model filter: exact values as
 * getFilterOptions lists them (`camera_makes`), only the caller's assets, not the Trash in the options,
 * combinable with the model filter; the cameras listed by make and model with a name to show
 * ("Nikon D70", not "NIKON CORPORATION NIKON D70"); both response variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, templateClient, type Client, type TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { RECIPES } from '../../template/recipes.ts';

describe('queryAssets: camera make', () => {
  let srv: TestServer;
  const ids: Record<string, string> = {};
  const clients: Record<'alice' | 'bob', Record<'A' | 'B', Client>> = {} as never;

  before(async () => {
    // Four of alice's cameras and one of bob's, from the template (RECIPES.cameras).
    srv = await startServer({ template: RECIPES.cameras });
    const alice = await templateClient(srv, 'alice');
    const bob = await templateClient(srv, 'bob');
    Object.assign(clients, { alice: inBothVariants(alice), bob: inBothVariants(bob) });
    const t = srv.template!.assets;
    Object.assign(ids, { canon40d: t.canon40d, canonG9: t.canonG9, nikon: t.nikon, olympusTrashed: t.olympus, bobsCanon: t.bobsCanon });
    // Put in the Trash by its owner (a person's deletion: watching and scanning leave it there).
    srv.container.db.prepare("UPDATE assets SET is_deleted = 1, deleted_at = ?, deleted_reason = 'user' WHERE asset_id = ?").run(Date.now(), ids.olympusTrashed);
  });
  after(() => srv.stop({ removeData: true }));

  for (const variant of ['A', 'B'] as const) {
    const keysOf = async (who: 'alice' | 'bob', filter: object) => {
      const c = clients[who][variant];
      const r = await c.post(`${V1}/assets/query`, { filter, pagination: { limit: 100 } });
      assert.equal(r.status, 200, r.text);
      const byId = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
      return (data(c, r).items as { media_item: { primary_asset: { asset_id: string } } }[])
        .map((i) => byId.get(i.media_item.primary_asset.asset_id) ?? i.media_item.primary_asset.asset_id)
        .sort();
    };

    test(`variant ${variant}: filter options list your camera makes, sorted, without the Trash`, async () => {
      const c = clients.alice[variant];
      const r = await c.get(`${V1}/assets/filter-options`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(data(c, r).camera_makes, ['Canon', 'NIKON CORPORATION']);
      const b = clients.bob[variant];
      assert.deepEqual(data(b, await b.get(`${V1}/assets/filter-options`)).camera_makes, ['Canon']);
    });

    test(`variant ${variant}: filter options name each camera by make and model, without repeating the make, and the pair filters`, async () => {
      const c = clients.alice[variant];
      const r = await c.get(`${V1}/assets/filter-options`);
      assert.equal(r.status, 200, r.text);
      const cameras = data(c, r).cameras as { make: string | null; model: string; name: string }[];
      // The Olympus is in the Trash; Bob's Canon is Bob's.
      assert.deepEqual(cameras, [
        { make: 'Canon', model: 'Canon EOS 40D', name: 'Canon EOS 40D' },
        { make: 'Canon', model: 'Canon PowerShot G9', name: 'Canon PowerShot G9' },
        { make: 'NIKON CORPORATION', model: 'NIKON D70', name: 'Nikon D70' },
      ]);
      // Each pair is what the list filters take, and selects that camera's photos.
      const keys = await Promise.all(cameras.map((cam) => keysOf('alice', { camera_make: cam.make!, camera_model: cam.model })));
      assert.deepEqual(keys, [['canon40d'], ['canonG9'], ['nikon']]);
      const b = clients.bob[variant];
      assert.deepEqual(data(b, await b.get(`${V1}/assets/filter-options`)).cameras, [{ make: 'Canon', model: 'Canon DIGITAL IXUS 400', name: 'Canon DIGITAL IXUS 400' }]);
    });

    test(`variant ${variant}: camera_make is exact and lists only your photos of that make`, async () => {
      assert.deepEqual(await keysOf('alice', { camera_make: 'Canon' }), ['canon40d', 'canonG9']);
      assert.deepEqual(await keysOf('alice', { camera_make: 'canon' }), [], 'exact, case included (as camera_model)');
      assert.deepEqual(await keysOf('alice', { camera_make: 'NIKON CORPORATION' }), ['nikon']);
      assert.deepEqual(await keysOf('bob', { camera_make: 'Canon' }), ['bobsCanon']);
      assert.deepEqual(await keysOf('alice', { camera_make: 'Canon', camera_model: 'Canon PowerShot G9' }), ['canonG9']);
      assert.deepEqual(await keysOf('alice', { camera_make: 'NIKON CORPORATION', camera_model: 'Canon EOS 40D' }), []);
    });
  }
});

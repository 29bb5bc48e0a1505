/**
 * Deleting items of the Trash for good (deleteAssetsPermanently, emptyTrash) through real HTTP, in both
 * response variants: the file leaves the household's folder, the catalog row and derivatives go,
 * `asset.deleted` is emitted; only the owner's own items in the Trash, everything else refused naming
 * its field with nothing deleted; a file that cannot be removed keeps its row and is reported.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { V1, data, problem } from '../helpers/api.ts';
import { deletePermanently, outcome, trash, trashWorld, VARIANTS, type TrashWorld } from './world.ts';

describe('delete permanently from the Trash', () => {
  let w: TrashWorld;
  before(async () => {
    w = await trashWorld();
  });
  after(() => w.srv.stop({ removeData: true }));

  const files = { A: ['exif/Canon_40D.jpg', 'exif/Nikon_D70.jpg', 'exif/Pentax_K10D.jpg'], B: ['exif/Sony_DSLR-A200.jpg', 'exif/Olympus_E-P3.jpg', 'exif/Casio_EX-M2.jpg'] };

  for (const variant of VARIANTS) {
    test(`a trashed photo goes for good: its file, its row, its derivatives, its album place; asset.deleted is emitted (variant ${variant})`, async () => {
      const alice = w.as('alice', variant);
      const id = await w.photo(`v${variant}/gone.jpg`, files[variant][0]!, 'alice');
      const derivatives = w.srv.container.derivatives.dir(id);
      assert.ok(fs.existsSync(w.srv.container.derivatives.thumbnail(id, 'small')), 'the pipeline made its thumbnail');
      const album = data(alice, await alice.post(`${V1}/albums`, { album_name: `Holiday ${variant}` }));
      assert.equal((await alice.post(`${V1}/albums/${album.album_id}/assets/${id}`, {})).status, 200);
      await trash(alice, id);

      const before = data(alice, await alice.get(`${V1}/assets/trash`));
      assert.equal(before.count, 1);
      const r = outcome(alice, await deletePermanently(alice, [id]));
      assert.deepEqual(r, { deleted: [id], failed: [] });
      assert.equal(fs.existsSync(w.file(`v${variant}/gone.jpg`)), false, 'the file left the household folder');
      assert.equal(w.row(id), undefined, 'the catalog row is gone');
      assert.equal(fs.existsSync(derivatives), false, 'the derivatives are gone');
      assert.equal((await alice.get(`${V1}/assets/${id}`)).status, 404);
      assert.equal(data(alice, await alice.get(`${V1}/albums/${album.album_id}`)).asset_count, 0);
      assert.equal(data(alice, await alice.get(`${V1}/assets/trash`)).count, 0);
      const events = w.deletedEvents.filter((e) => e.asset_id === id);
      assert.deepEqual(events.map((e) => [e.reason, e.owner_id, e.storage_path]), [['user', w.id.alice, `v${variant}/gone.jpg`]]);
    });

    test(`refused with nothing deleted: an item not in the Trash, another member's, a partner's or an album member's (variant ${variant})`, async () => {
      const alice = w.as('alice', variant);
      const bob = w.as('bob', variant);
      const carl = w.as('carl', variant);
      const inTrash = await w.photo(`v${variant}/trashed.jpg`, files[variant][1]!, 'alice');
      const live = await w.photo(`v${variant}/live.jpg`, files[variant][2]!, 'alice');
      await trash(alice, inTrash);
      const untouched = () => {
        assert.equal(w.row(inTrash)?.is_deleted, 1);
        assert.equal(w.row(live)?.is_deleted, 0);
        assert.ok(fs.existsSync(w.file(`v${variant}/trashed.jpg`)) && fs.existsSync(w.file(`v${variant}/live.jpg`)), 'both files are on disk');
      };

      const notInTrash = problem(alice, await deletePermanently(alice, [inTrash, live]));
      assert.equal(notInTrash.status, 409);
      assert.equal(notInTrash.code, 'asset_not_in_trash');
      assert.deepEqual(notInTrash.errors?.map((e) => e.field), ['body.asset_ids.1']);
      untouched();

      const foreign = problem(bob, await deletePermanently(bob, [inTrash]));
      assert.equal(foreign.status, 404);
      assert.equal(foreign.code, 'asset_not_found');
      assert.deepEqual(foreign.errors?.map((e) => e.field), ['body.asset_ids.0']);
      untouched();

      // Shared with bob as a partner and with carl through an album: they read it, never delete it.
      const share = await alice.post(`${V1}/partner-shares`, { partner_user_id: w.id.bob });
      assert.equal(share.status, 201, share.text);
      const album = data(alice, await alice.post(`${V1}/albums`, { album_name: `Shared ${variant}` }));
      assert.equal((await alice.post(`${V1}/albums/${album.album_id}/assets/${live}`, {})).status, 200);
      assert.equal((await alice.post(`${V1}/albums/${album.album_id}/members`, { user_id: w.id.carl, role: 'contributor' })).status, 201);
      for (const reader of [bob, carl]) {
        assert.equal((await reader.get(`${V1}/assets/${live}`)).status, 200, 'the reader sees the photo');
        const p = problem(reader, await deletePermanently(reader, [live]));
        assert.equal(p.status, 403);
        assert.equal(p.code, 'asset_read_only');
        assert.deepEqual(p.errors?.map((e) => e.field), ['body.asset_ids.0']);
        const hidden = problem(reader, await deletePermanently(reader, [inTrash]));
        assert.equal(hidden.status, 404, "another member's Trash is not even visible");
      }
      untouched();
      assert.equal((await alice.req('DELETE', `${V1}/partner-shares/${data(alice, share).share_id}`)).status, 200);

      const bad = problem(alice, await alice.post(`${V1}/assets/trash/delete`, { asset_ids: ['not-a-uuid'] }));
      assert.equal(bad.status, 422);
      assert.deepEqual(bad.errors?.map((e) => e.field), ['body.asset_ids.0']);
      const none = problem(alice, await alice.post(`${V1}/assets/trash/delete`, { asset_ids: [] }));
      assert.deepEqual(none.errors?.map((e) => e.field), ['body.asset_ids']);
      untouched();
      // Tidy for the next test: the Trash of alice empty again.
      outcome(alice, await deletePermanently(alice, [inTrash]));
    });

    test(`empty the Trash: only with the count the person confirmed, then everything goes (variant ${variant})`, async () => {
      const bob = w.as('bob', variant);
      const one = await w.photo(`v${variant}/bob1.jpg`, variant === 'A' ? 'exif/Fujifilm_FinePix_E500.jpg' : 'exif/Ricoh_Caplio_RR330.jpg', 'bob');
      const two = await w.photo(`v${variant}/bob2.jpg`, variant === 'A' ? 'exif/Panasonic_DMC-FZ30.jpg' : 'exif/Sony_HDR-HC3.jpg', 'bob');
      await trash(bob, one);
      const summary = data(bob, await bob.get(`${V1}/assets/trash`));
      assert.equal(summary.count, 1);
      // Meanwhile (another tab) a second photo goes to the Trash: the confirmed count no longer holds.
      await trash(bob, two);
      const changed = problem(bob, await bob.post(`${V1}/assets/trash/empty`, { expected_count: summary.count }));
      assert.equal(changed.status, 409);
      assert.equal(changed.code, 'trash_changed');
      assert.deepEqual(changed.errors?.map((e) => e.field), ['body.expected_count']);
      assert.ok(w.row(one) && w.row(two), 'nothing was deleted');
      const negative = problem(bob, await bob.post(`${V1}/assets/trash/empty`, { expected_count: -1 }));
      assert.deepEqual(negative.errors?.map((e) => e.field), ['body.expected_count']);

      const r = await bob.post(`${V1}/assets/trash/empty`, { expected_count: 2 });
      assert.deepEqual(outcome(bob, r).deleted.sort(), [one, two].sort());
      assert.equal(fs.existsSync(w.file(`v${variant}/bob1.jpg`)) || fs.existsSync(w.file(`v${variant}/bob2.jpg`)), false);
      assert.deepEqual(data(bob, await bob.get(`${V1}/assets/trash`)), { count: 0, retention_days: 30, oldest_deleted_at: null, next_deletion_at: null });
      // Alice's Trash is hers: bob emptying his never touches it.
      assert.equal(data(w.as('alice', variant), await w.as('alice', variant).get(`${V1}/assets/trash`)).count, 0);
    });
  }
});

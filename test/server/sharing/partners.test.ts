/**
 * Partner sharing through real HTTP, in both response variants: a member shares their library (all,
 * or from a date) with another, who shows it in their timeline (each photo with its owner's
 * initials), filters by the person sharing, reads but never changes; either side ends it, and the
 * timeline follows at once (the kept lists are keyed by the caller's partners). Bad input names its field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { V1, data, problem } from '../helpers/api.ts';
import type { Client } from '../helpers/server.ts';
import { sharingWorld, VARIANTS, type World } from './world.ts';

describe('partner sharing', () => {
  let w: World;
  before(async () => {
    w = await sharingWorld();
  });
  after(() => w.srv.stop({ removeData: true }));

  const timeline = async (c: Client, filter: Record<string, unknown> = {}) => {
    const r = await c.post(`${V1}/assets/query`, { filter, sort_by: 'date_captured', pagination: { limit: 100, offset: 0 } });
    assert.equal(r.status, 200, r.text);
    return data(c, r).items as { media_item: { primary_asset: { asset_id: string; liked: boolean; rating: number }; owner: { user_id: number; initials: string; display_name: string } | null } }[];
  };
  const ids = (items: Awaited<ReturnType<typeof timeline>>) => items.map((i) => i.media_item.primary_asset.asset_id).sort();

  for (const variant of VARIANTS) {
    test(`the partner shows the sharer's photos in their timeline, with initials, and filters by them (variant ${variant})`, async () => {
      const alice = w.as('alice', variant);
      const bob = w.as('bob', variant);
      const own = ids(await timeline(bob));
      assert.deepEqual(own, [w.assets.b1]);
      const created = await alice.post(`${V1}/partner-shares`, { partner_user_id: w.id.bob });
      assert.equal(created.status, 201, created.text);
      const share = data(alice, created);
      assert.equal(share.show_in_timeline, false);
      assert.deepEqual([share.owner.user_id, share.partner.user_id], [w.id.alice, w.id.bob]);
      assert.deepEqual(data(bob, await bob.get(`${V1}/partner-shares`)).received.map((s: any) => s.share_id), [share.share_id]);

      // Shared but not shown: the timeline stays bob's; the photos are readable and filterable by person.
      assert.deepEqual(ids(await timeline(bob)), own);
      assert.equal((await bob.get(`${V1}/assets/${w.assets.a1}`)).status, 200);
      assert.deepEqual(ids(await timeline(bob, { owner_id: w.id.alice })), [w.assets.a1, w.assets.a2, w.assets.a3].sort());

      const shown = await bob.put(`${V1}/partner-shares/${share.share_id}`, { show_in_timeline: true });
      assert.equal(shown.status, 200, shown.text);
      const items = await timeline(bob);
      assert.deepEqual(ids(items), [w.assets.a1, w.assets.a2, w.assets.a3, w.assets.b1].sort());
      for (const i of items) {
        const mine = i.media_item.primary_asset.asset_id === w.assets.b1;
        assert.deepEqual(i.media_item.owner, mine ? null : { user_id: w.id.alice, display_name: 'Alice', initials: 'A' });
      }
      assert.deepEqual(ids(await timeline(bob, { owner_id: w.id.bob })), own, 'filter by person: bob alone');
      // A shared photo is not in bob's library: uploading the same file is not a duplicate for him.
      const a1 = w.srv.container.db.prepare('SELECT hash, file_size FROM assets WHERE asset_id = ?').get(w.assets.a1) as { hash: string; file_size: number };
      const files = [{ hash: a1.hash, size: a1.file_size }];
      assert.equal(data(bob, await bob.post(`${V1}/uploads/precheck`, { files })).results[0].duplicate, false, "a partner's photo is no duplicate of bob's");
      assert.equal(data(alice, await alice.post(`${V1}/uploads/precheck`, { files })).results[0].duplicate, true, "it is one of alice's");
      assert.deepEqual(ids(await timeline(bob, { owner_id: w.id.carl })), [], 'carl shares nothing with bob');
      // Alice's own timeline is untouched; the Trash is bob's own only.
      assert.deepEqual(ids(await timeline(alice)), [w.assets.a1, w.assets.a2, w.assets.a3].sort());
      assert.deepEqual(ids(await timeline(bob, { is_deleted: true })), []);

      // Read, never change; likes are bob's own and show in his timeline.
      assert.equal(problem(bob, await bob.req('DELETE', `${V1}/assets/${w.assets.a2}`)).code, 'asset_read_only');
      assert.equal(problem(bob, await bob.put(`${V1}/assets/${w.assets.a2}/description`, { description: 'x' })).code, 'asset_read_only');
      assert.equal((await bob.put(`${V1}/assets/${w.assets.a2}/like`, { liked: true })).status, 200);
      const liked = (await timeline(bob)).find((i) => i.media_item.primary_asset.asset_id === w.assets.a2)!;
      assert.equal(liked.media_item.primary_asset.liked, true);
      assert.equal((await timeline(alice)).find((i) => i.media_item.primary_asset.asset_id === w.assets.a2)!.media_item.primary_asset.liked, false);
      assert.equal((await bob.put(`${V1}/assets/${w.assets.a2}/like`, { liked: false })).status, 200);

      // From a date after every photo: nothing is shared any more, in the timeline or by id.
      assert.equal(problem(bob, await bob.put(`${V1}/partner-shares/${share.share_id}`, { shared_from: '2000-01-01' })).code, 'partner_share_other_side');
      assert.equal(problem(alice, await alice.put(`${V1}/partner-shares/${share.share_id}`, { show_in_timeline: false })).code, 'partner_share_other_side');
      assert.equal((await alice.put(`${V1}/partner-shares/${share.share_id}`, { shared_from: '2099-01-01' })).status, 200);
      assert.deepEqual(ids(await timeline(bob)), own);
      assert.equal(problem(bob, await bob.get(`${V1}/assets/${w.assets.a1}`)).code, 'asset_not_found');
      assert.equal((await alice.put(`${V1}/partner-shares/${share.share_id}`, { shared_from: null })).status, 200);
      assert.equal(ids(await timeline(bob)).length, 4);

      // Either side ends it; the timeline follows at once.
      const end = await bob.req('DELETE', `${V1}/partner-shares/${share.share_id}`);
      assert.equal(end.status, 200, end.text);
      assert.deepEqual(ids(await timeline(bob)), own);
      assert.equal(problem(bob, await bob.get(`${V1}/assets/${w.assets.a1}`)).code, 'asset_not_found');
      assert.equal(problem(w.as('dave', variant), await w.as('dave', variant).req('DELETE', `${V1}/partner-shares/${share.share_id}`)).code, 'partner_share_not_found');
    });

    test(`bad input names its field (variant ${variant})`, async () => {
      const carl = w.as('carl', variant);
      const self = problem(carl, await carl.post(`${V1}/partner-shares`, { partner_user_id: w.id.carl }));
      assert.equal(self.status, 422);
      assert.equal(self.code, 'share_with_self');
      assert.deepEqual(self.errors?.map((e) => e.field), ['body.partner_user_id']);
      const nobody = problem(carl, await carl.post(`${V1}/partner-shares`, { partner_user_id: 987654 }));
      assert.equal(nobody.code, 'not_a_member');
      assert.deepEqual(nobody.errors?.map((e) => e.field), ['body.partner_user_id']);
      const date = problem(carl, await carl.post(`${V1}/partner-shares`, { partner_user_id: w.id.dave, shared_from: 'last summer' }));
      assert.equal(date.status, 422);
      assert.deepEqual(date.errors?.map((e) => e.field), ['body.shared_from']);
      const first = await carl.post(`${V1}/partner-shares`, { partner_user_id: w.id.dave, shared_from: '2001-02-03' });
      assert.equal(first.status, 201, first.text);
      assert.equal(data(carl, first).shared_from, '2001-02-03T00:00:00.000Z');
      assert.equal(problem(carl, await carl.post(`${V1}/partner-shares`, { partner_user_id: w.id.dave })).code, 'already_shared');
      assert.equal((await carl.req('DELETE', `${V1}/partner-shares/${data(carl, first).share_id}`)).status, 200);
    });
  }
});

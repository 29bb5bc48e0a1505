/**
 * Upload receipts, session progress and the precheck go through the access layer: a member asking
 * with another member's session or receipt ids (or for the bytes of another member's photo) gets
 * their own rows only, and no answer carries the other member's ids, names or assets. Both response
 * variants; the owner's own view of the same ids shows the rows exist.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { Client, type TestServer } from '../helpers/server.ts';
import { data } from '../helpers/api.ts';
import { U, copyCorpus, eventually, readSse, startUploadServer, stopUploadServer, uploadFile } from './helpers.ts';

const PHOTO = 'gps/DSCN0025.jpg';

describe("another member's upload sessions and receipts are not revealed", { timeout: 120_000 }, () => {
  let srv: TestServer;
  let src: ReturnType<typeof copyCorpus>;
  let alice: Client;
  let bob: Client;
  const hers = { session: '', sessionReceipt: '', fileReceipt: '', asset: '', hash: '', size: 0 };
  const his = { session: '', receipt: '' };

  before(async () => {
    ({ src, srv, alice, bob } = await startUploadServer([PHOTO]));
    const a = await alice.post(`${U}/sessions`, { filename: 'alice-secret-trip.jpg', total_size: 5000, total_chunks: 2 });
    assert.equal(a.status, 201, a.text);
    hers.session = a.body.session_id;
    hers.sessionReceipt = a.body.receipt_id;
    const up = await uploadFile(srv, alice.token!, src.file(PHOTO), { name: 'alice-beach.jpg' });
    assert.equal(up.status, 200, up.text);
    hers.fileReceipt = up.body.receipt_id;
    hers.asset = up.body.asset_id;
    hers.hash = await hashFile(src.file(PHOTO));
    hers.size = fs.statSync(src.file(PHOTO)).size;
    const b = await bob.post(`${U}/sessions`, { filename: 'bob-garden.jpg', total_size: 3000, total_chunks: 1 });
    assert.equal(b.status, 201, b.text);
    his.session = b.body.session_id;
    his.receipt = b.body.receipt_id;
    // Settled, so the answers below do not change while they are compared.
    await eventually(async () => (await alice.get(`${U}/receipts?receipt_ids=${hers.fileReceipt}`)).body.operations[0]?.terminal, 60_000, 'alice’s upload to finish');
  });
  after(() => stopUploadServer(srv, src));

  const revealsAlice = (text: string) =>
    [hers.session, hers.sessionReceipt, hers.fileReceipt, hers.asset, 'alice-secret-trip', 'alice-beach'].filter((s) => text.includes(s));

  for (const variant of ['A', 'B'] as const) {
    const as = (who: Client) => Object.assign(new Client(srv.url, variant), { token: who.token });

    test(`receipts: only the caller's among the ids asked for (variant ${variant})`, async () => {
      const ids = [hers.fileReceipt, his.receipt, hers.sessionReceipt].join(',');
      const r = await as(bob).get(`${U}/receipts?receipt_ids=${ids}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(data(as(bob), r).operations.map((o: { receipt_id: string }) => o.receipt_id), [his.receipt]);
      assert.deepEqual(revealsAlice(r.text), []);
      const own = await as(alice).get(`${U}/receipts?receipt_ids=${ids}`);
      assert.deepEqual(data(as(alice), own).operations.map((o: { receipt_id: string }) => o.receipt_id), [hers.fileReceipt, hers.sessionReceipt], 'the rows exist');
    });

    test(`session progress: asked by id or by default, only the caller's sessions (variant ${variant})`, async () => {
      const byId = await as(bob).get(`${U}/sessions?session_ids=${hers.session},${his.session}`);
      assert.equal(byId.status, 200, byId.text);
      const body = data(as(bob), byId);
      assert.deepEqual(body.sessions.map((s: { session_id: string }) => s.session_id), [his.session]);
      assert.equal(body.summary.total_sessions, 1);
      assert.deepEqual(revealsAlice(byId.text), []);
      const onlyHers = await as(bob).get(`${U}/sessions?session_ids=${hers.session}`);
      assert.deepEqual(data(as(bob), onlyHers).sessions, []);
      const recent = await as(bob).get(`${U}/sessions`);
      assert.deepEqual(data(as(bob), recent).sessions.map((s: { session_id: string }) => s.session_id), [his.session]);
      assert.deepEqual(revealsAlice(recent.text), []);
      const own = data(as(alice), await as(alice).get(`${U}/sessions`)).sessions.map((s: { session_id: string }) => s.session_id);
      assert.ok(own.includes(hers.session) && !own.includes(his.session), 'the owner sees hers, not his');
    });

    test(`precheck: another member's photo with the same bytes is not named (variant ${variant})`, async () => {
      const files = [{ hash: hers.hash, size: hers.size }];
      const r = await as(bob).post(`${U}/precheck`, { files });
      assert.equal(r.status, 200, r.text);
      const body = data(as(bob), r);
      assert.equal(body.duplicate_count, 0);
      assert.deepEqual(body.results.map((x: { duplicate: boolean; asset_id: string | null }) => [x.duplicate, x.asset_id]), [[false, null]]);
      assert.deepEqual(revealsAlice(r.text), []);
      const own = data(as(alice), await as(alice).post(`${U}/precheck`, { files }));
      assert.deepEqual(own.results.map((x: { asset_id: string | null }) => x.asset_id), [hers.asset], 'the owner is told she has it');
    });
  }

  test('the receipt stream follows only the caller’s receipts', async () => {
    const r = await readSse(`${srv.url}${U}/receipts/stream?receipt_ids=${hers.fileReceipt},${hers.sessionReceipt}`, { authorization: `Bearer ${bob.token}` }, { ms: 20_000 });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.events.map((e) => e.event),
      ['receipts', 'done'],
    );
    assert.deepEqual(r.events[0]!.data.operations, []);
    assert.deepEqual(r.events[1]!.data.receipt_ids, []);
    assert.deepEqual(revealsAlice(JSON.stringify(r.events)), []);
  });
});

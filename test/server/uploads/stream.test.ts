/**
 * The receipt stream (server-sent events): `receipts` on every change, `heartbeat` when quiet,
 * `done` once every receipt is terminal; the same in both variants, problems as problem+json.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { addMember, registerAdmin } from '../helpers/api.ts';
import { U, copyCorpus, readSse, uploadFile } from './helpers.ts';

const PHOTO = 'gps/DSCN0027.jpg';

describe('upload receipt stream', { timeout: 120_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  let src: ReturnType<typeof copyCorpus>;

  before(async () => {
    src = copyCorpus([PHOTO]);
    srv = await startServer();
    alice = new Client(srv.url);
    await registerAdmin(alice);
    bob = new Client(srv.url);
    await addMember(alice, bob, 'bob');
  });
  after(async () => {
    await srv.stop({ removeData: true });
    fs.rmSync(src.dir, { recursive: true, force: true });
  });

  test('an upload is followed to completed, then done', async () => {
    const up = await uploadFile(srv, alice.token!, src.file(PHOTO));
    assert.equal(up.body.status, 'processing', up.text);
    const id = up.body.receipt_id;
    const r = await readSse(`${srv.url}${U}/receipts/stream?receipt_ids=${id},00000000-0000-7000-8000-000000000000`, { authorization: `Bearer ${alice.token}` }, { ms: 60_000 });
    assert.equal(r.status, 200);
    assert.match(r.contentType, /^text\/event-stream/);
    const names = r.events.map((e) => e.event);
    assert.equal(names[0], 'receipts');
    assert.equal(names.at(-1), 'done', names.join(','));
    const lastReceipts = r.events.filter((e) => e.event === 'receipts').at(-1)!.data;
    assert.equal(lastReceipts.operations.length, 1, 'unknown ids are left out');
    assert.deepEqual([lastReceipts.operations[0].receipt_id, lastReceipts.operations[0].status, lastReceipts.operations[0].terminal], [id, 'completed', true]);
    assert.deepEqual(r.events.at(-1)!.data.receipt_ids, [id]);
  });

  test('changes are pushed as they happen, with heartbeats in between; variant B is not enveloped', async () => {
    srv.container.uploads.streamTiming.pollMs = 50;
    srv.container.uploads.streamTiming.heartbeatMs = 300;
    try {
      const s = (await alice.post(`${U}/sessions`, { filename: 'later.jpg', total_size: 1000, total_chunks: 1 })).body;
      let changed = false;
      const r = await readSse(
        `${srv.url}${U}/receipts/stream?receipt_ids=${s.receipt_id}`,
        { authorization: `Bearer ${alice.token}`, 'x-api-variant': 'B' },
        {
          ms: 20_000,
          onEvent: (e) => {
            if (e.event === 'heartbeat' && !changed) {
              changed = true;
              // What the pipeline does when it finishes (here: a failure), seen by the next poll.
              const problem = { type: 'urn:hearth:problem:processing_failed', title: 'Unprocessable Content', status: 422, detail: 'no', code: 'processing_failed', retryable: false };
              srv.container.db.prepare("UPDATE upload_receipts SET status = 'failed', problem = ?, updated_at = ? WHERE receipt_id = ?").run(JSON.stringify(problem), Date.now(), s.receipt_id);
            }
          },
        },
      );
      assert.equal(r.status, 200);
      const names = r.events.map((e) => e.event);
      assert.deepEqual(names, ['receipts', 'heartbeat', 'receipts', 'done'], names.join(','));
      assert.equal(r.events[0]!.data.operations[0].status, 'uploading', 'plain payload, no envelope');
      assert.equal(r.events[2]!.data.operations[0].status, 'failed');
      assert.equal(r.events[2]!.data.operations[0].problem.code, 'processing_failed');
      assert.equal(r.events[2]!.data.operations[0].success, false);
    } finally {
      srv.container.uploads.streamTiming.pollMs = 500;
      srv.container.uploads.streamTiming.heartbeatMs = 15_000;
    }
  });

  test("other users' receipts are not streamed; bad requests are problem+json in both variants", async () => {
    const s = (await alice.post(`${U}/sessions`, { filename: 'mine.jpg', total_size: 1000, total_chunks: 1 })).body;
    const foreign = await readSse(`${srv.url}${U}/receipts/stream?receipt_ids=${s.receipt_id}`, { authorization: `Bearer ${bob.token}` }, { ms: 5_000 });
    assert.deepEqual(foreign.events.map((e) => e.event), ['receipts', 'done']);
    assert.deepEqual(foreign.events[0]!.data.operations, []);
    for (const variant of ['A', 'B']) {
      const missing = await fetch(`${srv.url}${U}/receipts/stream`, { headers: { authorization: `Bearer ${alice.token}`, 'x-api-variant': variant } });
      assert.equal(missing.status, 422);
      assert.match(missing.headers.get('content-type') ?? '', /^application\/problem\+json/);
      const body = (await missing.json()) as { status: number; code: string };
      assert.equal(body.status, 422);
      const anon = await fetch(`${srv.url}${U}/receipts/stream?receipt_ids=x`, { headers: { 'x-api-variant': variant } });
      assert.equal(anon.status, 401);
      assert.match(anon.headers.get('content-type') ?? '', /^application\/problem\+json/);
    }
  });
});

/**
 * An asset whose processing job is given up while Hearth runs (here: cancelled while it transcodes)
 * ends `failed` with the reason at once, in the same transaction as the job, and its upload receipt
 * fails; the cancelled run's abort does not overwrite that; its metadata can be edited. Running the
 * job again queues the asset again and it ends `ready`, its receipt completed.
 * Before the fix the asset stayed `processing`, then `pending` with no job, until the next start.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client, type TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { eventually, uploadFile } from '../uploads/helpers.ts';
import { household } from './fixture.ts';
import { scratchDir } from './made-media.ts';

let srv: TestServer;
let owner: Client;
const tmp = scratchDir();

before(async () => void ({ srv, owner } = await household()));
after(async () => {
  await srv.stop({ removeData: true });
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A 720p MPEG-4 Part 2 clip: not web-playable, so processing transcodes it for a while (fast to make). */
function slowClip(): string {
  const out = path.join(tmp, 'holiday.mp4');
  execFileSync(
    'ffmpeg',
    ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-t', '60', '-c:v', 'mpeg4', '-q:v', '6', out],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return out;
}

function as(variant: 'A' | 'B'): Client {
  const c = new Client(srv.url, variant);
  c.token = owner.token;
  return c;
}

test('a processing job cancelled while it runs leaves its asset failed with the reason; running it again makes it ready', { timeout: 600_000 }, async () => {
  const up = await uploadFile(srv, owner.token!, slowClip());
  assert.equal(up.status, 200, up.text);
  const { asset_id: assetId, receipt_id: receiptId } = up.body as { asset_id: string; receipt_id: string };
  const job = () =>
    srv.container.db
      .prepare("SELECT id, state, progress_message FROM jobs WHERE kind = 'assets.process-asset' AND json_extract(args, '$.asset_id') = ? ORDER BY id DESC")
      .get(assetId) as { id: number; state: string; progress_message: string | null };
  // Cancelled while the web copy is being made: the asset is `processing`, ffmpeg is running.
  await eventually(() => job().state === 'running' && job().progress_message === 'web video', 120_000, 'the transcode to start');
  const before = data(owner, await owner.get(`${V1}/assets/${assetId}`));
  assert.equal(before.state, 'processing');

  const cancelled = srv.container.jobs.cancel(job().id);
  assert.equal(cancelled?.state, 'cancelled');

  const settledAs = async (when: string) => {
    for (const variant of ['A', 'B'] as const) {
      const c = as(variant);
      const a = data(c, await c.get(`${V1}/assets/${assetId}`));
      assert.equal(a.state, 'failed', `${when} (${variant}): ${a.state} ${a.last_error}`);
      assert.equal(a.last_error, 'Processing was cancelled.', `${when} (${variant})`);
      const r = await c.get(`${V1}/uploads/receipts?receipt_ids=${receiptId}`);
      assert.equal(r.status, 200, r.text);
      const receipt = data(c, r).operations[0];
      assert.equal(receipt.status, 'failed', `${when} (${variant}): ${JSON.stringify(receipt)}`);
      assert.equal(receipt.problem.code, 'processing_failed');
      assert.equal(receipt.problem.detail, 'Processing was cancelled.');
    }
  };
  // Settled in the cancel's own transaction: nothing had to run yet.
  await settledAs('right after the cancel');
  // The aborted run (ffmpeg killed, handler unwinding) does not put it back to pending or rewrite the reason.
  await srv.container.jobRunner.whenIdle();
  assert.equal(job().state, 'cancelled');
  await settledAs('after the aborted run ended');

  for (const variant of ['A', 'B'] as const) {
    const c = as(variant);
    const edit = await c.put(`${V1}/assets/${assetId}`, { specific_metadata: { camera_make: `Maker ${variant}` } });
    assert.equal(edit.status, 200, `${variant}: a given-up asset can be edited: ${edit.text}`);
  }

  // Run again by hand: queued again at once, then processed to the end.
  const retried = srv.container.jobs.retryNow(job().id);
  assert.ok(retried && ['available', 'running'].includes(retried.state), JSON.stringify(retried));
  for (const variant of ['A', 'B'] as const) {
    const c = as(variant);
    const a = data(c, await c.get(`${V1}/assets/${assetId}`));
    assert.ok(['pending', 'processing'].includes(a.state), `${variant}: queued again, not ${a.state}`);
    assert.equal(a.last_error, null);
    const receipt = data(c, await c.get(`${V1}/uploads/receipts?receipt_ids=${receiptId}`)).operations[0];
    assert.equal(receipt.status, 'processing', `${variant}: ${JSON.stringify(receipt)}`);
  }
  await srv.container.jobRunner.whenIdle();
  for (const variant of ['A', 'B'] as const) {
    const c = as(variant);
    const a = data(c, await c.get(`${V1}/assets/${assetId}`));
    assert.equal(a.state, 'ready', `${variant}: ${a.state} ${a.last_error}`);
    assert.equal(a.specific_metadata.camera_make, 'Maker B', 'the edit made while it was failed is kept');
    const receipt = data(c, await c.get(`${V1}/uploads/receipts?receipt_ids=${receiptId}`)).operations[0];
    assert.equal(receipt.status, 'completed', `${variant}: ${JSON.stringify(receipt)}`);
  }
});

/**
 * "Pause indexing" on the home machine (features/jobs/indexing-pause.ts), through the real host channel: a
 * pause stops the media and ML queues from starting jobs (a new photo waits, queued, not lost), holds across a
 * restart, and a resume processes what waited. The HTTP port has no such route. Real server, real catalog.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { registerAdmin } from '../helpers/api.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { corpusFile, waitFor } from '../repositories/helpers.ts';
import { createHostChannelClient, HostChannelError } from '../../../server/src/features/host-actions/host-channel.client.ts';

let srv: TestServer | null = null;
after(async () => {
  await srv?.stop({ removeData: true });
});

const stateOf = (s: TestServer, assetId: string) => s.container.db.prepare('SELECT state FROM assets WHERE asset_id = ?').pluck().get(assetId) as string;
const waitingJobs = (s: TestServer) => s.container.db.prepare(`SELECT count(*) FROM jobs WHERE queue = 'media' AND state = 'available'`).pluck().get() as number;

test('a pause on the home machine holds new photos in the queue, survives a restart, and a resume processes them', async () => {
  srv = await startServer();
  await srv.container.hostChannel.listening;
  const admin = new Client(srv.url, 'A');
  const { session } = await registerAdmin(admin);
  let host = createHostChannelClient({ dataDir: srv.dataDir });

  assert.deepEqual(await host.indexing(), { paused: false, paused_at: null });
  const paused = await host.setIndexingPaused(true);
  assert.equal(paused.paused, true);
  assert.ok(paused.paused_at && Date.parse(paused.paused_at) > 0);
  assert.equal((await host.setIndexingPaused(true)).paused_at, paused.paused_at, 'pausing again keeps the first time');

  // A new photo is catalogued, and its processing waits in the queue.
  const repo = srv.container.repositories.primary()!;
  fs.copyFileSync(corpusFile('exif/Canon_40D.jpg'), path.join(repo.path, 'paused.jpg'));
  const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: 'paused.jpg', ownerId: session.user.user_id, source: 'scan' });
  assert.equal(r.outcome, 'created');
  const assetId = (r as { asset_id: string }).asset_id;
  await srv.container.jobRunner.whenIdle(); // idle: a paused queue's jobs cannot run now
  assert.equal(srv.container.jobRunner.isPaused('media'), true);
  assert.equal(srv.container.jobRunner.isPaused('ml'), true);
  assert.notEqual(stateOf(srv, assetId), 'ready');
  assert.ok(waitingJobs(srv) >= 1, 'its processing job waits');

  // Still paused after a restart.
  const dataDir = srv.dataDir;
  await srv.stop();
  srv = await startServer({ dataDir });
  await srv.container.hostChannel.listening;
  host = createHostChannelClient({ dataDir });
  assert.equal((await host.indexing()).paused_at, paused.paused_at);
  assert.equal(srv.container.jobRunner.isPaused('media'), true);
  await srv.container.jobRunner.whenIdle();
  assert.notEqual(stateOf(srv, assetId), 'ready');

  // Resumed: what waited is processed.
  assert.deepEqual(await host.setIndexingPaused(false), { paused: false, paused_at: null });
  const s = srv;
  await waitFor('the photo processed after the resume', () => stateOf(s, assetId) === 'ready' || null, 60_000);
  assert.equal(waitingJobs(srv), 0);

  // Bad input on the channel; and no such route on the network port.
  await assert.rejects(
    () => fetchOverChannel(host),
    (e: unknown) => e instanceof HostChannelError && e.status === 422,
  );
  const lan = await fetch(`${srv.url}/host/v1/indexing`, { method: 'PUT', body: '{"paused":true}', headers: { 'content-type': 'application/json' } });
  assert.equal(lan.status, 404);
  assert.equal((await host.indexing()).paused, false);
});

/** A PUT with a body that is no boolean, through the client's own request path (a string where `paused` goes). */
function fetchOverChannel(host: ReturnType<typeof createHostChannelClient>): Promise<unknown> {
  return host.setIndexingPaused('yes' as unknown as boolean);
}

/**
 * A stop between an approval and its answer never leaves a host action `running` for ever. At the next start
 * (approval.ts recoverInterrupted): an action whose folder did become a repository is completed with it; one whose
 * folder was not registered failed, retryable, and a retry presents it on the home machine again. Real server,
 * stopped and started again on the same data folder; the stop inside the approval is made by putting the rows
 * back where such a stop leaves them.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { data, login, signedInHousehold, V1 } from '../helpers/api.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTemps } from '../repositories/helpers.ts';
import { createHostChannelClient } from '../../../server/src/features/host-actions/host-channel.client.ts';
import { asked, photoFolder } from './helpers.ts';

let srv: TestServer | null = null;
after(async () => {
  await srv?.stop({ removeData: true });
  cleanupTemps();
});

test('after a stop in the middle of an approval, the action is completed when its folder was registered, else failed and retryable', async () => {
  srv = await startServer();
  await srv.container.hostChannel.listening;
  const { members } = await signedInHousehold(srv.url, 'A', ['bob'] as const);
  const bob = members.bob.client;
  const host = createHostChannelClient({ dataDir: srv.dataDir });

  // Registered before the stop: approved, then put back to `running` without its answer.
  const registered = await asked(bob, { name: 'Registered' });
  const done = await host.approve(registered.id, photoFolder());
  assert.equal(done.status, 'completed');
  // Not registered: the stop came before the repositories' door was reached.
  const lost = await asked(bob, { name: 'Lost' });
  const db = srv.container.db;
  db.prepare(`UPDATE host_actions SET status = 'running', repository_id = NULL, root_id = NULL, completed_at = NULL WHERE action_id = ?`).run(registered.id);
  db.prepare(`UPDATE host_actions SET status = 'running', host_path = ? WHERE action_id = ?`).run(photoFolder(), lost.id);

  const dataDir = srv.dataDir;
  await srv.stop();
  srv = await startServer({ dataDir });
  const bobAgain = new Client(srv.url, 'A');
  await login(bobAgain, 'bob');

  const completed = data(bobAgain, await bobAgain.get(`${V1}/host-actions/${registered.id}`));
  assert.equal(completed.status, 'completed');
  assert.equal(completed.repository_id, done.repository_id);
  assert.ok(completed.completed_at);

  const failed = data(bobAgain, await bobAgain.get(`${V1}/host-actions/${lost.id}`));
  assert.equal(failed.status, 'failed');
  assert.equal(failed.problem.code, 'host_action_interrupted');
  assert.equal(failed.problem.retryable, true);
  assert.doesNotMatch(JSON.stringify(failed), /\/tmp\//, 'no path in the answer');

  const retried = data(bobAgain, await bobAgain.post(`${V1}/host-actions/${lost.id}/retry`));
  assert.equal(retried.status, 'pending');
  const listed = srv.container.db.prepare(`SELECT count(*) FROM host_actions WHERE status = 'running'`).pluck().get();
  assert.equal(listed, 0);
});

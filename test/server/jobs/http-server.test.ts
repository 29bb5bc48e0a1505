/**
 * The Queue and jobs operations through the real server (real sign-in, real queue): administrators
 * only, and the numbers follow jobs the pipeline really ran. http.test.ts covers shapes, filters and
 * paging on the router with a controlled clock.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';

describe('queue and jobs through the server', () => {
  let srv: TestServer;
  let admin: Client;
  let member: Client;

  before(async () => {
    srv = await startServer();
    admin = new Client(srv.url);
    const me = await registerAdmin(admin);
    member = new Client(srv.url);
    await addMember(admin, member, 'bob');
    const repo = srv.container.repositories.primary()!;
    fs.copyFileSync(path.join(CORPUS, 'exif/Canon_40D.jpg'), path.join(repo.path, 'a.jpg'));
    fs.writeFileSync(path.join(repo.path, 'broken.jpg'), Buffer.concat([fs.readFileSync(path.join(CORPUS, 'exif/Canon_40D.jpg')).subarray(0, 600)]));
    for (const rel of ['a.jpg', 'broken.jpg']) {
      await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: rel, ownerId: me.session.user.user_id, source: 'scan' });
    }
    await srv.container.jobRunner.whenIdle();
  });
  after(() => srv.stop({ removeData: true }));

  test('administrators see stats, summaries, lists and single jobs; members 403; anonymous 401', async () => {
    const stats = data(admin, await admin.get(`${V1}/jobs/stats`));
    assert.ok(stats.completed >= 1, JSON.stringify(stats));
    const summaries = data(admin, await admin.get(`${V1}/queues/summaries?error_limit=5`));
    const media = summaries.queues.find((q: { name: string }) => q.name === 'media');
    assert.ok(media && media.processed_jobs >= 1);
    const list = data(admin, await admin.get(`${V1}/jobs?queue=media&limit=10`));
    assert.ok(list.jobs.length >= 1);
    const one = data(admin, await admin.get(`${V1}/jobs/${list.jobs[0].id}`));
    assert.equal(one.kind, 'assets.process-asset');
    assert.equal(problem(admin, await admin.get(`${V1}/jobs/999999`)).status, 404);
    assert.ok(data(admin, await admin.get(`${V1}/queues`)).queues.length >= 1);
    for (const p of ['/jobs/stats', '/queues/summaries', '/jobs', '/queues', `/jobs/${list.jobs[0].id}`]) {
      assert.equal((await member.get(`${V1}${p}`)).status, 403, p);
      assert.equal((await new Client(srv.url).get(`${V1}${p}`)).status, 401, p);
    }
  });

  test('a truncated photo ends discarded with its reason visible to the administrator', async () => {
    const failed = data(admin, await admin.get(`${V1}/jobs?state=discarded&limit=10`));
    assert.equal(failed.jobs.length, 1, JSON.stringify(failed));
    assert.ok(failed.jobs[0].last_error && !failed.jobs[0].last_error.includes(srv.dataDir), 'a reason, without server paths');
  });
});

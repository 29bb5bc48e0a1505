/**
 * Without CLIP's files the semantic jobs wait, visibly, and run once the models are there: after a restart (the
 * start registers the indexers and wakes the jobs that waited), or at once when whoever installs the models while
 * the server runs calls `container.semantic.enable()`. Never failed for lack of a model.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Client, startServer, tempDataDir, type TestServer } from '../helpers/server.ts';
import { V1, data, registerAdmin } from '../helpers/api.ts';
import { uploadFile } from '../uploads/helpers.ts';
import { linkModels, tempModelsDir } from '../ml/models.ts';
import { makeClipStandin } from '../../../scripts/models/make-clip-standin.ts';
import { STANDIN_FILES } from '../../../scripts/models/make-clip-standin.ts';
import { GREEN, RED, STANDIN_ENV, VOCAB, colourVideo, solidJpeg, standinModelsDir } from './helpers.ts';

describe('semantic jobs without the CLIP models', { timeout: 300_000 }, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-semantic-missing-'));
  const cleanup: (() => Promise<void> | void)[] = [() => fs.rmSync(work, { recursive: true, force: true })];
  after(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  /** A server on an empty models folder with one photo and one clip uploaded and a semantic rebuild queued. */
  async function waitingLibrary(dataDir: string, modelsDir: string) {
    const srv = await startServer({ dataDir, env: { HEARTH_MODELS_DIR: modelsDir, ...STANDIN_ENV } });
    const alice = new Client(srv.url);
    await registerAdmin(alice);
    // OCR (its npm package) and faces (models/ of the repository) are ready whatever the models folder holds:
    // off here, so only semantic jobs wait.
    assert.equal((await alice.patch(`${V1}/settings/system`, { ml: { ocr_enabled: false, face_enabled: false } })).status, 200);
    const ids: string[] = [];
    for (const f of [await solidJpeg(path.join(work, 'red.jpg'), RED), colourVideo(path.join(work, 'clip.mp4'), [[RED, 2]])]) {
      const r = await uploadFile(srv, alice.token!, f);
      assert.equal(r.status, 200, r.text);
      ids.push(r.body.asset_id as string);
    }
    await srv.container.jobRunner.whenIdle();
    await srv.container.indexing.indexers.settled();
    assert.equal(srv.container.indexing.indexers.available('semantic'), false);
    assert.equal(srv.container.indexing.indexers.available('video_semantic'), false);
    const r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['semantic', 'video_semantic'], limit: 10 });
    assert.equal(r.status, 200, r.text);
    assert.match(data(alice, r).message, /No model is installed yet for semantic, video_semantic/);
    await srv.container.jobRunner.whenIdle();
    const jobs = () =>
      srv.container.db.prepare(`SELECT json_extract(args, '$.task') AS task, state, progress_message AS why FROM jobs WHERE kind = 'indexing.index-asset' ORDER BY 1`).all() as {
        task: string;
        state: string;
        why: string | null;
      }[];
    for (const j of jobs()) {
      assert.equal(j.state, 'scheduled', `${j.task} waits`);
      assert.match(j.why ?? '', /no model is installed/);
    }
    assert.deepEqual(jobs().map((j) => j.task), ['semantic', 'video_semantic']);
    const s = data(alice, await alice.get(`${V1}/assets/indexing/stats`));
    assert.deepEqual([s.tasks.semantic.indexed_count, s.tasks.semantic.queued_jobs, s.tasks.video_semantic.queued_jobs], [0, 1, 1]);
    return { srv, ids, jobs };
  }

  async function install(modelsDir: string) {
    linkModels(modelsDir, ['clip-tokenizer']);
    await makeClipStandin(modelsDir, VOCAB);
  }

  function assertIndexed(srv: TestServer, ids: string[]) {
    const n = (id: string) => srv.container.db.prepare('SELECT count(*) FROM semantic_vectors WHERE asset_id = ?').pluck().get(id);
    assert.deepEqual(ids.map(n), [1, 1]);
    const states = srv.container.db.prepare(`SELECT DISTINCT state FROM jobs WHERE kind = 'indexing.index-asset'`).pluck().all();
    assert.deepEqual(states, ['completed'], 'run at once, not after the rest of their hour of waiting');
  }

  test('waiting jobs survive a restart and run once the start finds the models verified', async () => {
    const dataDir = tempDataDir();
    const modelsDir = tempModelsDir();
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }), () => fs.rmSync(modelsDir, { recursive: true, force: true }));
    const first = await waitingLibrary(dataDir, modelsDir);
    await first.srv.stop();
    await install(modelsDir);
    const srv = await startServer({ dataDir, env: { HEARTH_MODELS_DIR: modelsDir, ...STANDIN_ENV } });
    cleanup.push(() => srv.stop());
    await srv.container.indexing.indexers.settled();
    assert.ok(srv.container.indexing.indexers.available('semantic'));
    await srv.container.jobRunner.whenIdle();
    assertIndexed(srv, first.ids);
  });

  test('models installed while the server runs: enable() registers the indexers and the waiting jobs run', async () => {
    const modelsDir = tempModelsDir();
    cleanup.push(() => fs.rmSync(modelsDir, { recursive: true, force: true }));
    const { srv, ids } = await waitingLibrary(tempDataDir(), modelsDir);
    cleanup.push(() => srv.stop({ removeData: true }));
    assert.equal(await srv.container.semantic.enable(), false, 'still nothing to enable');
    await install(modelsDir);
    assert.equal(await srv.container.semantic.enable(), true);
    await srv.container.jobRunner.whenIdle();
    assertIndexed(srv, ids);
  });

  test('a model file gone after the start makes the next job wait (never fail); back in place, the job runs', async () => {
    const modelsDir = await standinModelsDir();
    cleanup.push(() => fs.rmSync(modelsDir, { recursive: true, force: true }));
    const srv = await startServer({ env: { HEARTH_MODELS_DIR: modelsDir, ...STANDIN_ENV } });
    cleanup.push(() => srv.stop({ removeData: true }));
    const alice = new Client(srv.url);
    await registerAdmin(alice);
    await srv.container.indexing.indexers.settled();
    assert.ok(srv.container.indexing.indexers.available('semantic'));
    fs.rmSync(path.join(modelsDir, STANDIN_FILES.vision));
    const r = await uploadFile(srv, alice.token!, await solidJpeg(path.join(work, 'green.jpg'), GREEN));
    assert.equal(r.status, 200, r.text);
    const id = r.body.asset_id as string;
    await srv.container.jobRunner.whenIdle();
    const job = () =>
      srv.container.db
        .prepare(`SELECT state, attempt, progress_message AS why FROM jobs WHERE kind = 'indexing.index-asset' AND json_extract(args, '$.asset_id') = ?`)
        .get(id) as { state: string; attempt: number; why: string | null };
    assert.equal(job().state, 'scheduled', JSON.stringify(job()));
    assert.match(job().why ?? '', /^Waiting: /);
    assert.equal(srv.container.db.prepare('SELECT count(*) FROM semantic_vectors WHERE asset_id = ?').pluck().get(id), 0);

    await makeClipStandin(modelsDir, VOCAB);
    assert.equal(srv.container.indexing.wakeWaiting('semantic'), 1);
    await srv.container.jobRunner.whenIdle();
    assert.equal(job().state, 'completed');
    assert.equal(srv.container.db.prepare('SELECT count(*) FROM semantic_vectors WHERE asset_id = ?').pluck().get(id), 1);
  });
});

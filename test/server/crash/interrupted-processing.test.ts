/**
 * Processing jobs cut off by a crash. The crash point `asset.process` kills the server (SIGKILL) as
 * soon as the pipeline starts on an asset, which is what a file that crashes its decoder does.
 *
 * - One crash: after the restart the asset is processed; the crash did not use up an attempt.
 * - A file that crashes the server every time: after MAX_CRASH_INTERRUPTIONS crashes its job is
 *   given up and the asset ends `failed` with that reason (its receipt too), so it no longer blocks
 *   metadata edits (409 asset_processing) or its repository's stack detection. Before the fix the
 *   job was discarded at the third start and the asset stayed `processing` forever.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MAX_CRASH_INTERRUPTIONS } from '../../../server/src/platform/jobs/runner.ts';
import { Client, startServer, tempDataDir } from '../helpers/server.ts';
import { V1, addMember, data, login, registerAdmin } from '../helpers/api.ts';
import { CORPUS, U, postMultipart } from '../uploads/helpers.ts';
import { openCatalog, startChild, stopChild, type Child } from './child.ts';

const ONCE = path.join(CORPUS, 'gps/DSCN0025.jpg');
const ALWAYS = path.join(CORPUS, 'exif/Canon_40D.jpg');
const CRASH = { HEARTH_FAILPOINT: 'asset.process' };

/** Starts the server with the crash point; the recovered job crashes it, before or after it is ready. */
async function startAndCrash(dataDir: string): Promise<void> {
  let child: Child | undefined;
  let killedByTest = false;
  const exited = startChild(dataDir, CRASH).then(
    (c) => ((child = c), c.exited),
    (e: Error) => (/exited \(SIGKILL\)/.test(e.message) ? 'SIGKILL' : Promise.reject(e)),
  );
  const t = setTimeout(() => {
    killedByTest = true;
    child?.child.kill('SIGKILL');
  }, 60_000); // never hang the suite
  assert.equal(await exited, 'SIGKILL');
  clearTimeout(t);
  assert.equal(killedByTest, false, 'the server crashed on the recovered job');
}

function upload(url: string, token: string | null, file: string) {
  return postMultipart(url, `${U}/files`, token, [{ name: 'file', filename: path.basename(file), data: fs.readFileSync(file) }]).catch((e: Error) => ({ status: 0, text: e.message, body: null }));
}

test('a processing job cut off by a crash runs again without losing an attempt; one that crashes every time ends failed, never processing', { timeout: 400_000 }, async () => {
  assert.ok(fs.existsSync(ALWAYS), ALWAYS);
  const dataDir = tempDataDir('hearth-crash-process-');
  const job = (file: string) =>
    `SELECT j.* FROM jobs j JOIN assets a ON j.unique_key = 'process:' || a.asset_id WHERE a.original_filename = '${path.basename(file)}' ORDER BY j.id DESC LIMIT 1`;
  try {
    // One crash while the first photo is being processed.
    const first = await startChild(dataDir, CRASH);
    const alice = new Client(first.url);
    await registerAdmin(alice);
    const bob = new Client(first.url);
    await addMember(alice, bob, 'bob');
    await upload(first.url, bob.token, ONCE);
    assert.equal(await first.exited, 'SIGKILL', 'the pipeline crashed the server');

    const srv = await startServer({ dataDir });
    try {
      await srv.container.jobRunner.whenIdle();
      const db = srv.container.db;
      const once = db.prepare(`SELECT state FROM assets WHERE original_filename = ?`).pluck().get(path.basename(ONCE));
      assert.equal(once, 'ready');
      const onceJob = db.prepare(job(ONCE)).get() as { attempt: number; state: string; errors: string };
      assert.equal(onceJob.state, 'completed');
      assert.equal(onceJob.attempt, 1, 'the attempt the crash cut off was given back');
      assert.match(onceJob.errors, /stopped unexpectedly/);
    } finally {
      await srv.stop();
    }

    // A photo that crashes the server every time it is processed.
    const second = await startChild(dataDir, CRASH);
    const bob2 = new Client(second.url);
    await login(bob2, 'bob');
    await upload(second.url, bob2.token, ALWAYS);
    assert.equal(await second.exited, 'SIGKILL');
    // The crash cut the job off once; every start runs it again and crashes, up to the bound.
    for (let crash = 2; crash <= MAX_CRASH_INTERRUPTIONS; crash++) await startAndCrash(dataDir);

    // The next start gives the job up (crash point still armed: nothing runs the file again) and
    // the asset is failed with the reason, not left processing.
    const last = await startChild(dataDir, CRASH);
    try {
      const catalog = openCatalog(dataDir);
      const a = catalog.prepare(`SELECT asset_id, state, last_error FROM assets WHERE original_filename = ?`).get(path.basename(ALWAYS)) as { asset_id: string; state: string; last_error: string };
      assert.equal(a.state, 'failed', 'a final state, not processing');
      assert.match(a.last_error, new RegExp(`stopped unexpectedly ${MAX_CRASH_INTERRUPTIONS} times`));
      assert.equal(catalog.prepare(`SELECT count(*) FROM assets WHERE state IN ('pending', 'processing')`).pluck().get(), 0);
      const receipt = catalog.prepare(`SELECT status, problem FROM upload_receipts WHERE file_name = ?`).get(path.basename(ALWAYS)) as { status: string; problem: string };
      assert.equal(receipt.status, 'failed');
      assert.equal(JSON.parse(receipt.problem).code, 'processing_failed');
      catalog.close();

      for (const variant of ['A', 'B'] as const) {
        const c = new Client(last.url, variant);
        await login(c, 'bob');
        const got = await c.get(`${V1}/assets/${a.asset_id}`);
        assert.equal(got.status, 200, got.text);
        assert.equal(data(c, got).state, 'failed');
        const edit = await c.put(`${V1}/assets/${a.asset_id}`, { specific_metadata: { camera_make: `Canon ${variant}` } });
        assert.equal(edit.status, 200, `metadata edits are no longer refused as processing: ${edit.text}`);
      }
      assert.equal(last.child.exitCode, null, 'the server stays up');
      assert.equal(last.child.signalCode, null);
    } finally {
      await stopChild(last);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

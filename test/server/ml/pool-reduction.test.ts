/**
 * Tensors made and reduced where the model runs (issue 25): the OCR recogniser's [N, T, 6625] probabilities are
 * reduced inside the inference worker (a real child process) to what greedy CTC decoding reads, and only that
 * crosses back to the server; the text detector's input crosses as its 8-bit pixels and becomes the float tensor
 * there. Counted through the real runner: the bytes of every recogniser answer and detector feed. And the text
 * read is the same as when whole tensors cross (the engine without either, on the same pool): same lines, boxes
 * and confidences, to the bit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MlRuntime, expandPixels, type Feeds, type Tensor } from '../../../server/src/adapters/ml/index.ts';
import type { Lane, Reduction } from '../../../server/src/adapters/ml/inference-pool.ts';
import { createOcr, ctcSteps, loadCharset, poolDetectPixels, poolInfer, poolRecogniseSteps, spaceIndex } from '../../../server/src/features/ocr/index.ts';
import { detInput, detPixelInput } from '../../../server/src/features/ocr/det-input.ts';
import { loadRgb } from '../../../server/src/features/ocr/image-input.ts';
import { OCR_MODELS } from '../../../server/src/features/ocr/ocr-indexer.ts';
import { analyseFaces, facePoolInfer, type FaceAnalysis } from '../../../server/src/features/faces/index.ts';
import type { FaceInfer } from '../../../server/src/features/faces/types.ts';
import { corpusPath } from '../media/corpus.ts';
import { KEYS_PATH } from '../ocr/onnx-infer.ts';
import { SHARED_MODELS } from './models.ts';

const PHOTOS = ['ocr_01.png', 'ocr_05.jpg'];

const bytesOf = (out: Record<string, Tensor>) => Object.values(out).reduce((n, t) => n + t.data.byteLength, 0);

describe('inference pool: outputs reduced in the worker', { timeout: 300_000 }, () => {
  let ml: MlRuntime;
  /** Per recogniser run answered by the pool: the bytes that crossed back, and how many time steps they cover. */
  const recAnswers: { bytes: number; steps: number; reduced: boolean }[] = [];
  /** Per detector run: the bytes of its feed, and the values of the tensor it stands for; the bytes answered. */
  const detFeeds: { bytes: number; values: number; pixels: boolean; answered: number }[] = [];

  before(() => {
    ml = new MlRuntime({ modelsDir: SHARED_MODELS, shippedModelsDir: null, dataDir: null, maxWorkers: 1 });
    const run = ml.run.bind(ml);
    ml.run = async (modelId: string, feeds: Feeds, lane?: Lane, reduce?: Reduction | null) => {
      // Read before the run: a float feed's bytes are freed once sent (inference-pool.ts).
      const sent = Object.values(feeds)[0]!.data.byteLength;
      const out = await run(modelId, feeds, lane, reduce);
      if (modelId === OCR_MODELS.det) {
        const f = Object.values(feeds)[0]!;
        detFeeds.push({ bytes: sent, values: f.dims.reduce((a, b) => a * b, 1), pixels: !!f.pixels, answered: bytesOf(out) });
      }
      if (modelId === OCR_MODELS.rec) {
        const first = Object.values(out)[0]!;
        recAnswers.push({ bytes: bytesOf(out), steps: first.dims[0]! * first.dims[1]!, reduced: !!reduce });
      }
      return out;
    };
  });
  after(() => ml.pool.close());

  test('the recogniser answers 12 bytes a time step instead of its probabilities, and the text read is the same', async () => {
    const charset = loadCharset(KEYS_PATH);
    const reduced = createOcr({ infer: poolInfer(ml), recogniseSteps: poolRecogniseSteps(ml), detectPixels: poolDetectPixels(ml), charset });
    const whole = createOcr({ infer: poolInfer(ml), charset });
    for (const name of PHOTOS) {
      const file = corpusPath('ocr', name);
      const a = await reduced.recognise(file);
      const b = await whole.recognise(file);
      assert.ok(a.lines.length > 0, `${name}: text was read`);
      assert.deepEqual(a, b, `${name}: the same lines, boxes and confidences either way`);
    }
    // A photo without text (a smooth gradient, made here): its detector map has no pixel above the threshold, so
    // only that crosses back, and the answer is the same: no lines.
    const sharp = (await import('sharp')).default;
    const plain = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#7090b0' } }).jpeg().toBuffer();
    const before = detFeeds.length;
    assert.deepEqual(await reduced.recognise(plain), await whole.recognise(plain));
    assert.deepEqual(detFeeds.slice(before).map((d) => [d.pixels, d.answered]), [[true, 4], [false, 4 * detFeeds.at(-1)!.values / 3]], 'no map crossed back for the photo without text');
    const withReduction = recAnswers.filter((r) => r.reduced);
    const without = recAnswers.filter((r) => !r.reduced);
    assert.ok(withReduction.length > 0 && without.length > 0, 'both engines ran the recogniser on the pool');
    for (const r of withReduction) assert.equal(r.bytes, 12 * r.steps + 4, 'best, best_p, space_p per step and the class count');
    const perStep = (rs: typeof recAnswers) => rs.reduce((n, r) => n + r.bytes, 0) / rs.reduce((n, r) => n + r.steps, 0);
    assert.equal(perStep(without), 4 * charset.length, 'without the reduction every class probability crosses');
    for (const f of detFeeds.filter((d) => d.pixels)) assert.ok(f.bytes <= f.values, `the detector's feed is its pixels, 1 byte a value or less (padding): ${f.bytes} bytes for ${f.values} values`);
    for (const f of detFeeds.filter((d) => !d.pixels)) assert.equal(f.bytes, 4 * f.values);
    assert.equal(detFeeds.filter((d) => d.pixels).length, PHOTOS.length + 1, 'one detector run a photo on pixels');
  });

  test("the detector's pixel feed stands for its tensor to the bit", async () => {
    for (const name of PHOTOS) {
      const image = await loadRgb(corpusPath('ocr', name), 800);
      const { tensor, frame } = await detInput(image);
      const px = await detPixelInput(image);
      assert.deepEqual(px.frame, frame);
      assert.deepEqual(px.input.dims, tensor.dims);
      assert.deepEqual(expandPixels({ type: 'float32', ...px.input }), tensor.data, name);
    }
  });

  test('the worker reduction is the same, value for value, as the server-side one on the whole tensor', async () => {
    const charset = loadCharset(KEYS_PATH);
    const space = spaceIndex(charset);
    // A batch of two rendered lines of text, 48 × 320 each (the recogniser's input shape: BGR planes in [-1, 1]).
    const sharp = (await import('sharp')).default;
    const line = (text: string) =>
      sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="320" height="48"><rect width="320" height="48" fill="white"/><text x="6" y="36" font-family="sans-serif" font-size="30">${text}</text></svg>`))
        .removeAlpha()
        .raw()
        .toBuffer();
    const rgb = Buffer.concat([await line('Hello 2024'), await line('NO LITTER')]);
    const plane = 48 * 320;
    const data = new Float32Array(2 * 3 * plane);
    for (let n = 0; n < 2; n++) for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) data[(n * 3 + c) * plane + i] = rgb[(n * plane + i) * 3 + (2 - c)]! / 127.5 - 1;
    const input = 'x';
    const feeds: Feeds = { [input]: { type: 'float32', dims: [2, 3, 48, 320], data } };
    // A copy: a float feed's bytes are freed once sent (inference-pool.ts), and `data` goes to the pool again below.
    const full = Object.values(await ml.run(OCR_MODELS.rec, { [input]: { ...feeds[input]!, data: data.slice() } }))[0]!;
    const mine = ctcSteps({ data: full.data as Float32Array, dims: full.dims }, space);
    const theirs = await poolRecogniseSteps(ml)({ data, dims: [2, 3, 48, 320] }, space);
    assert.deepEqual(theirs.dims, mine.dims);
    assert.deepEqual(theirs.best, mine.best);
    assert.deepEqual(theirs.bestP, mine.bestP);
    assert.deepEqual(theirs.spaceP, mine.spaceP);
    assert.ok(mine.best.some((c) => c !== 0), 'the strips held something the recogniser read');
  });

  test("the face detector's feed crosses as its pixels, 1 byte a value, and finds the same faces as its float tensor", async () => {
    const pool = facePoolInfer(ml);
    const feeds: { bytes: number; values: number; pixels: boolean }[] = [];
    const asPixels: FaceInfer = (model, input) => {
      if (model === 'detector') feeds.push({ bytes: input.data.byteLength, values: input.dims.reduce((a, b) => a * b, 1), pixels: 'pixels' in input });
      return pool(model, input);
    };
    const asFloats: FaceInfer = (model, input) => pool(model, 'pixels' in input ? { data: expandPixels({ type: 'float32', ...input }), dims: input.dims } : input);
    const file = corpusPath('faces', 'face_012.jpg');
    const plain = (a: FaceAnalysis) => a.faces.map((f) => ({ ...f, embedding: Array.from(f.embedding) }));
    const a = plain(await analyseFaces(file, asPixels));
    const b = plain(await analyseFaces(file, asFloats));
    assert.equal(a.length, 2, 'the two faces of the pair photo');
    assert.deepEqual(a, b, 'the same boxes, landmarks, scores and embeddings');
    assert.equal(feeds.length, 1);
    assert.ok(feeds[0]!.pixels, 'the detector was fed pixels');
    assert.ok(feeds[0]!.bytes <= feeds[0]!.values, `1 byte a value or less (padding): ${feeds[0]!.bytes} bytes for ${feeds[0]!.values} values`);
  });
});

/**
 * The stand-in CLIP (scripts/models/make-clip-standin.ts) and CLIP's tokenizer: the script makes the
 * models the registry pins, at test time, into a temporary models folder; they load in the inference
 * pool with CLIP's tensors; photos made with sharp (solid colours) and a corpus photo embed to 512-d
 * unit vectors, and "a red photo" is nearest the red one (likewise green, blue); the tokenizer gives
 * CLIP's ids; the stand-in is used only with HEARTH_CLIP_STANDIN=1 (capabilities over HTTP, both variants).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import {
  ClipEncoder,
  ClipTokenizer,
  InferenceError,
  MlRuntime,
  ModelCatalog,
  ModelFileChecker,
  ModelUnavailableError,
  fetchModels,
  modelEntry,
  requiredModelIds,
} from '../../../server/src/adapters/ml/index.ts';
import { loadConfig } from '../../../server/src/config/env.ts';
import { STANDIN_FILES, STANDIN_PALETTE, makeClipStandin } from '../../../scripts/models/make-clip-standin.ts';
import { Client, startServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { SHARED_MODELS, linkModels, tempModelsDir } from './models.ts';

const VOCAB = path.join(SHARED_MODELS, modelEntry('clip-tokenizer')!.files[0]!.path);
const CORPUS_PHOTO = path.resolve(import.meta.dirname, '../../../../shared/corpus/exif/door-knocker.jpg');
const VARIANTS = ['A', 'B'] as const;

/** A models folder with the stand-in made by the script and CLIP's vocabulary linked in. */
async function standinModelsDir(): Promise<string> {
  const dir = tempModelsDir();
  linkModels(dir, ['clip-tokenizer']);
  await makeClipStandin(dir, VOCAB);
  return dir;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);

/** A photo-like JPEG of one colour, made by sharp (JPEG noise and all). */
function solidJpeg(rgb: [number, number, number], width = 320, height = 240): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

describe('CLIP tokenizer', () => {
  let tokenizer: ClipTokenizer;
  before(async () => {
    tokenizer = await ClipTokenizer.fromFile(VOCAB);
  });

  test("gives CLIP's ids: the known captions, and Hugging Face's CLIP integration text token for token", () => {
    assert.equal(tokenizer.vocabSize, 49408);
    assert.deepEqual(tokenizer.encode('a photo of a dog'), [320, 1125, 539, 320, 1929]);
    assert.deepEqual(tokenizer.encode('a photo of a cat'), [320, 1125, 539, 320, 2368]);
    // The text and ids of the CLIP tokenizer test of Hugging Face transformers (openai/clip-vit-base-patch32):
    // lowercasing, whitespace, single digits, punctuation, an accent split into bytes, CJK and Thai (a letter
    // and its combining vowel are separate pieces).
    const text =
      'This is a test\nI was born in 92000, and this is falsé.\n生活的真谛是\nHi  Hello\nHi   Hello\n\n \n  \n Hello\n<s>\nhi<s>there\n' +
      'The following string should be properly encoded: Hello.\nBut ird and ปี   ird   ด\nHey how are you doing';
    const ids = [
      589, 533, 320, 1628, 328, 739, 2683, 530, 280, 273, 271, 271, 271, 267, 537, 589, 533, 2778, 82, 4166, 269, 33375, 162, 112, 119, 163, 248, 226, 41570,
      164, 108, 249, 42891, 363, 1883, 3306, 1883, 3306, 3306, 283, 338, 285, 1883, 283, 338, 285, 997, 518, 3473, 9696, 1535, 655, 12560, 524, 33703, 281,
      3306, 269, 767, 2770, 537, 1777, 505, 20278, 2770, 38825, 2189, 829, 631, 592, 1960,
    ];
    assert.deepEqual(tokenizer.encode(text), ids);
  });

  test('each colour word of the stand-in is one token: the id of its merge line in the vocabulary file', () => {
    // Derived from the file, not from the BPE code: merge line i (after the header) is token 512 + i − 1.
    const merges = gunzipSync(fs.readFileSync(VOCAB)).toString('utf8').split('\n').slice(1, 48895);
    for (const word of STANDIN_PALETTE.flatMap((p) => p.words)) {
      const line = merges.findIndex((m) => m.replace(' ', '') === `${word}</w>`);
      assert.ok(line >= 0, `${word}</w> is a merge of the vocabulary`);
      assert.deepEqual(tokenizer.encode(word), [512 + line], word);
      assert.deepEqual(tokenizer.encode(`A ${word.toUpperCase()} photo`), [320, 512 + line, 1125], `${word}, any case`);
    }
    assert.deepEqual(tokenizer.encode('red'), [736]);
    assert.deepEqual(tokenizer.encode('blue'), [1746]);
  });

  test('sequences: 49406 … 49407 zero-padded to 77; text cleaned like CLIP; too long is cut and still ends with 49407', () => {
    const rows = tokenizer.tokenize(['a photo of a dog', '  A   Photo\tof a DOG ', 'a photo &amp;amp; a dog', '']);
    assert.equal(rows.length, 4 * 77);
    const row = (r: number) => Array.from(rows.subarray(r * 77, (r + 1) * 77), Number);
    assert.deepEqual(row(0), [49406, 320, 1125, 539, 320, 1929, 49407, ...Array(70).fill(0)]);
    assert.deepEqual(row(1), row(0), 'case and whitespace do not matter');
    assert.deepEqual(row(2).slice(0, 7), [49406, 320, 1125, 261, 320, 1929, 49407], 'HTML entities are unescaped twice, as CLIP does: "&" is 261');
    assert.deepEqual(row(3), [49406, 49407, ...Array(75).fill(0)]);
    assert.deepEqual(tokenizer.encode("don't"), [tokenizer.tokenId('don</w>'), tokenizer.tokenId("'t</w>")], 'a contraction is its own piece');

    const long = tokenizer.tokenize([Array(100).fill('dog').join(' ')]);
    assert.equal(long.length, 77);
    assert.equal(long[0], 49406n);
    assert.equal(long[76], 49407n);
    assert.ok(long.subarray(1, 76).every((id) => id === 1929n));
  });
});

describe('stand-in CLIP', () => {
  let dir: string;
  let ml: MlRuntime;
  before(async () => {
    dir = await standinModelsDir();
    ml = new MlRuntime({ modelsDir: dir, dataDir: null, clipStandin: true, maxWorkers: 1 });
  });
  after(async () => {
    await ml?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the script makes exactly the files the registry pins (deterministic bytes), small and quick', async () => {
    const again = tempModelsDir();
    try {
      const written = await makeClipStandin(again, VOCAB);
      for (const [id, tower] of [
        ['clip-standin-vision', 'vision'],
        ['clip-standin-text', 'text'],
      ] as const) {
        const pinned = modelEntry(id)!.files[0]!;
        const made = written.find((w) => w.path === STANDIN_FILES[tower])!;
        assert.deepEqual({ bytes: made.bytes, sha256: made.sha256 }, { bytes: pinned.bytes, sha256: pinned.sha256 }, `${id} as the registry pins it`);
        assert.ok(fs.readFileSync(path.join(again, pinned.path)).equals(fs.readFileSync(path.join(dir, pinned.path))), `${id}: same bytes every time`);
        assert.equal((await ml.catalog.status(id)).state, 'ready');
      }
      assert.ok(written.reduce((n, w) => n + w.bytes, 0) < 3e6, 'a few MB at most');
    } finally {
      fs.rmSync(again, { recursive: true, force: true });
    }
  });

  test("loads in the pool with CLIP's tensors: pixel_values [N,3,224,224] → image_embeds [N,512], input_ids [N,77] → text_embeds [N,512]", async () => {
    const pixels = new Float32Array(2 * 3 * 224 * 224);
    const img = await ml.run('clip-standin-vision', { pixel_values: { type: 'float32', dims: [2, 3, 224, 224], data: pixels } });
    assert.deepEqual(Object.keys(img), ['image_embeds']);
    assert.deepEqual(img.image_embeds!.dims, [2, 512]);
    assert.equal(img.image_embeds!.type, 'float32');
    const ids = new BigInt64Array(3 * 77);
    const txt = await ml.run('clip-standin-text', { input_ids: { type: 'int64', dims: [3, 77], data: ids } });
    assert.deepEqual(Object.keys(txt), ['text_embeds']);
    assert.deepEqual(txt.text_embeds!.dims, [3, 512]);

    // Not CLIP's input: refused by that call, as the real towers would refuse it.
    await assert.rejects(
      ml.run('clip-standin-vision', { pixel_values: { type: 'float32', dims: [1, 3, 112, 112], data: new Float32Array(3 * 112 * 112) } }),
      (e: unknown) => e instanceof InferenceError && /pixel_values/.test(e.message),
    );
    await assert.rejects(
      ml.run('clip-standin-text', { input_ids: { type: 'int64', dims: [1, 16], data: new BigInt64Array(16) } }),
      (e: unknown) => e instanceof InferenceError && /input_ids/.test(e.message),
    );
    const loaded = ml.pool.diagnostics().models_loaded.map((m) => [m.model_id, m.task]).sort();
    assert.deepEqual(loaded, [
      ['clip-standin-text', 'semantic'],
      ['clip-standin-vision', 'semantic'],
    ]);
  });

  test('photos embed to 512-d unit vectors; "a red photo" is nearest the red photo, and likewise green and blue', async () => {
    const clip = new ClipEncoder(ml);
    assert.deepEqual(clip.models, { vision: 'clip-standin-vision', text: 'clip-standin-text', tokenizer: 'clip-tokenizer' });
    assert.equal(clip.modelVersion, 'clip-standin-vision');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-clip-photo-'));
    try {
      // The corpus photo is copied at test time and read from its path; the solid ones are passed as bytes.
      const photo = path.join(tmp, 'door-knocker.jpg');
      fs.copyFileSync(CORPUS_PHOTO, photo);
      const names = ['red', 'green', 'blue', 'corpus'] as const;
      const images = [await solidJpeg([230, 20, 25]), await solidJpeg([20, 170, 40], 200, 300), await solidJpeg([25, 50, 220]), photo];
      const vectors = await clip.embedImages(images);
      assert.equal(vectors.length, 4);
      for (const [i, v] of vectors.entries()) {
        assert.equal(v.length, 512, names[i]);
        assert.ok(v.every(Number.isFinite), names[i]);
        assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5, `${names[i]} is a unit vector`);
      }

      const texts = await clip.embedTexts(['a red photo', 'a green photo', 'a blue photo']);
      assert.equal(texts.length, 3);
      for (const [t, colour] of (['red', 'green', 'blue'] as const).entries()) {
        assert.ok(Math.abs(Math.hypot(...texts[t]!) - 1) < 1e-5);
        const scores = vectors.map((v) => dot(texts[t]!, v));
        const best = scores.indexOf(Math.max(...scores));
        assert.equal(names[best], colour, `"a ${colour} photo" ranks the ${colour} photo first: ${scores.map((s) => s.toFixed(3))}`);
        for (const [i, s] of scores.entries()) if (i !== best) assert.ok(scores[best]! - s > 0.3, `clearly nearer than the ${names[i]} one`);
      }

      // The same photo, read from bytes or from its path, gives the same vector; a batch gives what one call gives.
      const [again] = await clip.embedImages([fs.readFileSync(photo)]);
      assert.ok(dot(again!, vectors[3]!) > 0.99999);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('a stand-in file that differs from the registry is refused like any model', async () => {
    const bad = tempModelsDir();
    try {
      linkModels(bad, ['clip-tokenizer']);
      await makeClipStandin(bad, VOCAB);
      const file = path.join(bad, STANDIN_FILES.vision);
      const bytes = fs.readFileSync(file);
      bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
      fs.writeFileSync(file, bytes);
      const other = new MlRuntime({ modelsDir: bad, dataDir: null, clipStandin: true });
      try {
        await assert.rejects(new ClipEncoder(other).embedImages([await solidJpeg([255, 0, 0])]), (e: unknown) => {
          assert.ok(e instanceof ModelUnavailableError);
          assert.equal(e.reason, 'failed');
          assert.match(e.message, /vision_standin\.onnx has sha256 [0-9a-f]{64}, expected f8b40f89/);
          return true;
        });
      } finally {
        await other.close();
      }
    } finally {
      fs.rmSync(bad, { recursive: true, force: true });
    }
  });

  test('models:fetch never downloads a stand-in from the internet (it is made, not fetched) and does not fetch it by default', async () => {
    assert.ok(!requiredModelIds().some((id) => id.startsWith('clip-standin')));
    const empty = tempModelsDir();
    try {
      const catalog = new ModelCatalog(empty, new ModelFileChecker(null));
      const r = await fetchModels(catalog, { ids: ['clip-standin-vision'] });
      assert.deepEqual(r.fetched, []);
      assert.equal(r.failed.length, 1);
      assert.match(r.failed[0]!.error, /made by scripts\/models\/make-clip-standin\.ts, not downloaded/);
      assert.deepEqual(fs.readdirSync(empty), [], 'nothing was written');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('stand-in switch (HEARTH_CLIP_STANDIN)', () => {
  let dir: string;
  before(async () => {
    dir = await standinModelsDir();
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('off by default; 1/true turns it on; anything else is a configuration error', () => {
    assert.equal(loadConfig({}).clipStandin, false);
    assert.equal(loadConfig({ HEARTH_CLIP_STANDIN: '1' }).clipStandin, true);
    assert.equal(loadConfig({ HEARTH_CLIP_STANDIN: 'true' }).clipStandin, true);
    assert.throws(() => loadConfig({ HEARTH_CLIP_STANDIN: 'maybe' }), /HEARTH_CLIP_STANDIN/);
  });

  for (const variant of VARIANTS) {
    test(`variant ${variant}: without the switch a stand-in in the models folder never passes for CLIP; with it, semantic search is available from it`, async () => {
      const off = await startServer({ env: { HEARTH_MODELS_DIR: dir } });
      try {
        const c = new Client(off.url, variant);
        const tasks = data(c, await c.get(`${V1}/capabilities`)).ml.tasks;
        for (const t of ['semantic_image_embed', 'semantic_text_embed', 'classify']) {
          assert.equal(tasks[t].available, false, t);
          assert.equal(tasks[t].reason, 'not_installed', t);
          assert.ok(!tasks[t].models.some((m: string) => m.startsWith('clip-standin')), t);
        }
        assert.ok(!(await off.container.ml.catalog.all()).some((m) => m.id.startsWith('clip-standin')), 'not listed to administrators');
      } finally {
        await off.stop({ removeData: true });
      }

      const on = await startServer({ env: { HEARTH_MODELS_DIR: dir, HEARTH_CLIP_STANDIN: '1' } });
      try {
        const c = new Client(on.url, variant);
        const tasks = data(c, await c.get(`${V1}/capabilities`)).ml.tasks;
        const seen = (t: string) => ({ available: tasks[t].available, reason: tasks[t].reason, models: tasks[t].models });
        assert.deepEqual(seen('semantic_image_embed'), { available: true, reason: null, models: ['clip-standin-vision'] });
        assert.deepEqual(seen('semantic_text_embed'), { available: true, reason: null, models: ['clip-standin-text', 'clip-tokenizer'] });
        assert.deepEqual(seen('classify'), { available: true, reason: null, models: ['clip-standin-vision', 'clip-standin-text', 'clip-tokenizer'] });
        const listed = (await on.container.ml.catalog.all()).filter((m) => m.id.startsWith('clip-standin'));
        assert.deepEqual(
          listed.map((m) => [m.id, m.state]),
          [
            ['clip-standin-vision', 'ready'],
            ['clip-standin-text', 'ready'],
          ],
        );
        // The server's own encoder runs the stand-in.
        const [v] = await new ClipEncoder(on.container.ml).embedTexts(['red']);
        assert.equal(v!.length, 512);
      } finally {
        await on.stop({ removeData: true });
      }
    });
  }
});

/**
 * Zero-shot tags. The margin rule on its own (prototypes, margin, confidence, the best frame of a video), the
 * seeded classifiers' shape, prototypes computed once per text model with the real (stand-in) text tower, and,
 * through the real server, classifiers on the stand-in's colour signal injected in place of the seeded ones
 * (which are written for real CLIP): the tags a photo and a video earn after their embedding, with source
 * `zeroshot` over HTTP (both variants); a reindex with other classifiers replaces them; a person's own tag of the
 * same name is never touched; a semantic reset wipes the zeroshot tags and the reindex gives them back.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, registerAdmin } from '../helpers/api.ts';
import { inBothVariants, listedKeys } from '../helpers/corpus-assets.ts';
import { uploadFile } from '../uploads/helpers.ts';
import {
  BACKGROUND_PROMPTS,
  SEEDED_CLASSIFIERS,
  ZeroShotClassifier,
  classifierScores,
  confidenceOf,
  createSemanticIndexers,
  prototypeOf,
  type ClassifierDefinition,
} from '../../../server/src/features/semantic/index.ts';
import { BLUE, GREEN, RED, STANDIN_ENV, WHITE, colourVideo, dot, solidJpeg, standinModelsDir } from './helpers.ts';

const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return Float32Array.from(v, (x) => x / n);
};

describe('the margin rule', () => {
  test('a prototype is the normalised mean of the normalised vectors', () => {
    const p = prototypeOf([Float32Array.from([3, 0, 0]), Float32Array.from([0, 0.5, 0])]);
    assert.ok(Math.abs(p[0]! - Math.SQRT1_2) < 1e-6 && Math.abs(p[1]! - Math.SQRT1_2) < 1e-6 && p[2] === 0, String(p));
    assert.throws(() => prototypeOf([]), RangeError);
  });

  test('score = cos(pos) − cos(neg) of the best frame; matched at the threshold; confidence 0.5 there, logistic(12·d) around it', () => {
    const protos = { positive: unit([1, 0, 0]), negative: unit([0, 1, 0]) };
    const frames = [
      { frameTsMs: 0, vector: unit([0, 1, 0]) },
      { frameTsMs: 500, vector: unit([1, 1, 0]) },
      { frameTsMs: 900, vector: unit([2, 1, 0]) },
    ];
    const s = classifierScores(frames, protos, 0.3)!;
    assert.equal(s.frameTsMs, 900, 'the best frame');
    assert.ok(Math.abs(s.score - (2 - 1) / Math.sqrt(5)) < 1e-6);
    assert.equal(s.matched, true);
    assert.ok(Math.abs(s.confidence - 1 / (1 + Math.exp(-12 * (s.score - 0.3)))) < 1e-9);
    assert.equal(confidenceOf(0.03, 0.03), 0.5);
    const exact = classifierScores([{ frameTsMs: -1, vector: unit([1, 0, 0]) }], protos, 1)!;
    assert.equal(exact.matched, true, 'score = threshold matches');
    assert.equal(exact.confidence, 0.5);
    assert.equal(classifierScores(frames.slice(0, 1), protos, 0.03)!.matched, false);
    assert.equal(classifierScores([], protos, 0.03), null, 'no vectors, no score');
  });

  test('the seeded classifiers: document, receipt, screenshot, illustration, 4–8 prompts each, threshold 0.03, background negatives', () => {
    assert.deepEqual(SEEDED_CLASSIFIERS.map((c) => c.tag), ['document', 'receipt', 'screenshot', 'illustration']);
    for (const c of SEEDED_CLASSIFIERS) {
      assert.ok(c.positive.length >= 4 && c.positive.length <= 8, c.tag);
      assert.equal(new Set(c.positive).size, c.positive.length, `${c.tag}: no prompt twice`);
      assert.equal(c.threshold, 0.03);
      assert.equal(c.negative, undefined);
    }
    assert.deepEqual(BACKGROUND_PROMPTS, ['a photo', 'an image', 'a picture', 'a random photograph']);
  });
});

/** Classifiers the stand-in can answer: it sees colour only. */
const COLOUR_CLASSIFIERS: ClassifierDefinition[] = [
  { tag: 'reddish', positive: ['a red photo', 'a photo in red', 'something red'], threshold: 0.03 },
  { tag: 'sky', positive: ['a blue photo', 'a blue picture'], negative: ['a green photo', 'a white photo'], threshold: 0.03 },
];
const OTHER_CLASSIFIERS: ClassifierDefinition[] = [{ tag: 'leafy', positive: ['a green photo'], threshold: 0.03 }];

describe('zero-shot tags after each embedding, through the server', { timeout: 600_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let modelsDir: string;
  let work: string;
  const ids: Record<string, string> = {};

  const useClassifiers = async (classifiers: ClassifierDefinition[]) => {
    const c = srv.container;
    const built = await createSemanticIndexers(c.ml, c.semantic.encoder, c.semantic.store, {
      db: c.db,
      settings: c.settings,
      mediumThumbnail: (id) => c.derivatives.thumbnail(id, 'medium'),
      webVideo: (id) => c.derivatives.webVideo(id),
      classifiers,
    });
    assert.ok(built?.classifies, 'the stand-in text tower is installed');
    c.indexing.indexers.register('semantic', built.photo).register('video_semantic', built.video);
  };
  const upload = async (key: string, file: string) => {
    const r = await uploadFile(srv, alice.token!, file);
    assert.equal(r.status, 200, r.text);
    ids[key] = r.body.asset_id as string;
  };
  /** The asset's tags over HTTP, both variants agreeing: name → [source, confidence]. */
  const tagsOf = async (key: string) => {
    const seen: Record<string, [string, number]>[] = [];
    for (const v of Object.values(inBothVariants(alice))) {
      const r = await v.get(`${V1}/assets/${ids[key]}/tags`);
      assert.equal(r.status, 200, r.text);
      seen.push(Object.fromEntries((data(v, r).tags as { tag_name: string; source: string; confidence: number }[]).map((t) => [t.tag_name, [t.source, t.confidence]])));
    }
    assert.deepEqual(seen[0], seen[1]);
    return seen[0]!;
  };
  const rebuild = async (body: object) => {
    const r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['semantic', 'video_semantic'], limit: 500, ...body });
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
  };

  before(async () => {
    modelsDir = await standinModelsDir();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-zeroshot-media-'));
    srv = await startServer({ env: { HEARTH_MODELS_DIR: modelsDir, ...STANDIN_ENV } });
    alice = new Client(srv.url);
    await registerAdmin(alice);
    await srv.container.indexing.indexers.settled();
    await useClassifiers(COLOUR_CLASSIFIERS);
    await upload('red', await solidJpeg(path.join(work, 'red.jpg'), RED));
    await upload('green', await solidJpeg(path.join(work, 'green.jpg'), GREEN));
    await upload('blue', await solidJpeg(path.join(work, 'blue.jpg'), BLUE));
    await upload('video', colourVideo(path.join(work, 'shots.mp4'), [[WHITE, 3], [RED, 3], [WHITE, 3]]));
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    for (const d of [modelsDir, work]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  test('prototypes are computed once per text model, with the text tower', async () => {
    const enc = srv.container.semantic.encoder;
    let calls = 0;
    const counting = { models: enc.models, embedTexts: (t: string[]) => (calls++, enc.embedTexts(t)) };
    const z = new ZeroShotClassifier(counting, COLOUR_CLASSIFIERS);
    const [a, b] = await Promise.all([z.prototypes(), z.prototypes()]);
    await z.classify(srv.container.semantic.store.vectorsOf(ids.red!, enc.modelVersion));
    assert.equal(a, b);
    assert.equal(calls, COLOUR_CLASSIFIERS.length, 'one text-tower call per classifier, once');
    const red = (await enc.embedTexts(['a red photo']))[0]!;
    assert.ok(dot(a[0]!.positive, red) > 0.99, 'the positive prototype points where its prompts do');
  });

  test('each photo and video earns the tags of its colours, source zeroshot, confidence from the margin (both variants)', async () => {
    const red = await tagsOf('red');
    assert.deepEqual(Object.keys(red), ['reddish']);
    assert.equal(red.reddish![0], 'zeroshot');
    assert.ok(red.reddish![1] > 0.5 && red.reddish![1] <= 1, String(red.reddish));
    assert.deepEqual(Object.keys(await tagsOf('blue')), ['sky']);
    assert.deepEqual(await tagsOf('green'), {}, 'green is neither');
    // The video's middle shot is red: the max over its frames.
    assert.deepEqual(Object.keys(await tagsOf('video')), ['reddish']);
    // The browse filter by tag source sees them at once (the catalog's change journal follows asset_tags).
    assert.deepEqual(await listedKeys(alice, ids, { filter: { tag_name: 'reddish', tag_source: 'zeroshot' } }), ['red', 'video']);
  });

  test('a reindex with other classifiers replaces the zeroshot tags; a person\'s tag of the same name is never touched', async () => {
    // Alice tags the green photo "reddish" herself, and confirms the red photo's machine tag (it becomes manual).
    for (const key of ['green', 'red']) {
      const r = await alice.post(`${V1}/assets/${ids[key]}/tags`, { tag_name: 'reddish' });
      assert.equal(r.status, 200, r.text);
    }
    await useClassifiers(OTHER_CLASSIFIERS);
    await rebuild({});
    assert.deepEqual(await tagsOf('green'), { leafy: ['zeroshot', (await tagsOf('green')).leafy![1]], reddish: ['manual', 1] });
    assert.deepEqual(await tagsOf('red'), { reddish: ['manual', 1] }, 'the confirmed tag stays, manual');
    assert.deepEqual(await tagsOf('blue'), {}, 'sky is gone with its classifier');
    assert.deepEqual(await tagsOf('video'), {}, 'the video\'s zeroshot reddish too');
    const zs = srv.container.db.prepare(`SELECT count(*) FROM asset_tags WHERE source = 'zeroshot'`).pluck().get();
    assert.equal(zs, 1, 'one zeroshot link: leafy on green');
  });

  test('a semantic reset wipes the zeroshot tags (never the manual ones) and the refill gives them back', async () => {
    await useClassifiers(COLOUR_CLASSIFIERS);
    const c = srv.container;
    // The wipe alone (what the rebuild job runs before queueing the refill).
    c.indexing.indexers.get('semantic')!.reset!();
    assert.equal(c.db.prepare(`SELECT count(*) FROM asset_tags WHERE source = 'zeroshot'`).pluck().get(), 0);
    assert.equal(c.db.prepare('SELECT count(*) FROM semantic_vectors').pluck().get(), 0);
    assert.deepEqual(await tagsOf('red'), { reddish: ['manual', 1] });
    await rebuild({ reset_semantic: true });
    assert.deepEqual(Object.keys(await tagsOf('blue')), ['sky']);
    assert.deepEqual(Object.keys(await tagsOf('video')), ['reddish']);
    assert.deepEqual(await tagsOf('red'), { reddish: ['manual', 1] });
    assert.deepEqual(Object.keys(await tagsOf('green')).sort(), ['reddish']);
    assert.equal((await tagsOf('green')).reddish![0], 'manual');
  });
});

/**
 * The `semantic` and `video_semantic` indexers through the real server (uploads over HTTP, index jobs after
 * processing, the ML runtime's worker pool) with the stand-in CLIP, whose vectors carry only colour:
 * - every photo gets one vector (frame -1) of the stand-in's model, from the original (JPEG, HEIC) when it has no
 *   medium thumbnail and from the medium one when it has; a damaged medium thumbnail falls back to the original;
 * - a video gets its frames with their times: a short clip its midpoint, a mid-length one the middle of each shot
 *   (scene detection), a one-shot video uniform centres, a long one (settings) N uniform centres; each frame's
 *   vector is the colour shown at that time;
 * - the stats count indexed photos and videos (both variants); a reindex replaces without duplicates; a semantic
 *   reset wipes and refills; an asset deleted for good loses its vectors and the store tells its listeners;
 * - `semantic_enabled` off queues nothing and refuses a rebuild.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, problem, registerAdmin } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { indexAsset } from '../../../server/src/features/indexing/index.ts';
import { copyCorpus, uploadFile } from '../uploads/helpers.ts';
import type { VectorChange } from '../../../server/src/features/semantic/index.ts';
import { BLUE, GREEN, RED, STANDIN_ENV, WHITE, YELLOW, colourVideo, dot, nearestColour, solidJpeg, standinModelsDir } from './helpers.ts';

const MODEL = 'clip-standin-vision';
const CORPUS = { jpeg: 'exif/door-knocker.jpg', heic: 'heic/IMG_1034.heic', raw: 'raw/RAW_NIKON_D1.NEF' } as const;

describe('semantic indexers: vectors of photos and video frames', { timeout: 600_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let modelsDir: string;
  let work: string;
  let src: ReturnType<typeof copyCorpus>;
  let texts: Record<string, Float32Array>;
  const ids: Record<string, string> = {};
  const changes: VectorChange[] = [];

  const upload = async (key: string, file: string) => {
    const r = await uploadFile(srv, alice.token!, file);
    assert.equal(r.status, 200, r.text);
    ids[key] = r.body.asset_id as string;
    await srv.container.jobRunner.whenIdle();
    return ids[key];
  };
  const frames = (key: string) => srv.container.semantic.store.vectorsOf(ids[key]!, MODEL);
  const rows = () => (srv.container.db.prepare('SELECT count(*) AS n FROM semantic_vectors').get() as { n: number }).n;
  const jobs = (key: string, task: string) =>
    srv.container.db
      .prepare(`SELECT state, last_error FROM jobs WHERE kind = 'indexing.index-asset' AND json_extract(args, '$.task') = ? AND json_extract(args, '$.asset_id') = ? ORDER BY id`)
      .all(task, ids[key]) as { state: string; last_error: string | null }[];
  const colours = (key: string) => frames(key).map((f) => [f.frameTsMs, nearestColour(f.vector, texts)] as const);

  before(async () => {
    modelsDir = await standinModelsDir();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-semantic-media-'));
    src = copyCorpus(Object.values(CORPUS));
    srv = await startServer({ env: { HEARTH_MODELS_DIR: modelsDir, ...STANDIN_ENV } });
    alice = new Client(srv.url);
    await registerAdmin(alice);
    await srv.container.indexing.indexers.settled();
    srv.container.semantic.store.onChange((c) => changes.push(c));
    const names = ['red', 'green', 'blue', 'yellow', 'grey', 'brown', 'white', 'black'];
    const vs = await srv.container.semantic.encoder.embedTexts(names.map((n) => `a ${n} photo`));
    texts = Object.fromEntries(names.map((n, i) => [n, vs[i]!]));
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    for (const d of [modelsDir, work, src?.dir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  test('with the stand-in installed, both tasks are registered under the image tower\'s model id', () => {
    for (const task of ['semantic', 'video_semantic'] as const) {
      assert.ok(srv.container.indexing.indexers.available(task), task);
      assert.equal(srv.container.indexing.indexers.get(task)!.modelId, MODEL);
    }
  });

  test('each photo gets one unit vector (frame -1) after its upload: JPEG, HEIC and RAW originals, coloured photos by their colour', async () => {
    await upload('red', await solidJpeg(path.join(work, 'red.jpg'), RED));
    await upload('green', await solidJpeg(path.join(work, 'green.jpg'), GREEN));
    await upload('blue', await solidJpeg(path.join(work, 'blue.jpg'), BLUE));
    await upload('jpeg', src.file(CORPUS.jpeg));
    await upload('heic', src.file(CORPUS.heic));
    await upload('raw', src.file(CORPUS.raw));
    for (const key of ['red', 'green', 'blue', 'jpeg', 'heic', 'raw']) {
      assert.ok(jobs(key, 'semantic').every((j) => j.state === 'completed') && jobs(key, 'semantic').length === 1, `${key}: ${JSON.stringify(jobs(key, 'semantic'))}`);
      assert.deepEqual(jobs(key, 'video_semantic'), [], 'photos are not the video task\'s');
      const f = frames(key);
      assert.equal(f.length, 1, key);
      assert.equal(f[0]!.frameTsMs, -1);
      assert.equal(f[0]!.vector.length, 512);
      assert.ok(Math.abs(dot(f[0]!.vector, f[0]!.vector) - 1) < 1e-4, `${key} is unit length`);
    }
    assert.equal(nearestColour(frames('red')[0]!.vector, texts), 'red');
    assert.equal(nearestColour(frames('green')[0]!.vector, texts), 'green');
    assert.equal(nearestColour(frames('blue')[0]!.vector, texts), 'blue');
    // The index entry names the model, and the store told its listeners what it replaced.
    const entry = srv.container.db.prepare(`SELECT model_id FROM asset_index_entries WHERE asset_id = ? AND task = 'semantic'`).pluck().get(ids.heic);
    assert.equal(entry, MODEL);
    const told = changes.find((c) => c.kind === 'replace' && c.assetId === ids.red);
    assert.ok(told && told.kind === 'replace' && told.modelId === MODEL && told.frames.length === 1);
    const rowid = srv.container.db.prepare('SELECT rowid FROM assets WHERE asset_id = ?').pluck().get(ids.red);
    assert.equal(told.assetRowid, rowid);
  });

  test('a photo with a medium thumbnail is embedded from it; a damaged one falls back to the original', async () => {
    const thumb = await alice.get(`${V1}/assets/${ids.red}/thumbnail?size=medium`);
    assert.equal(thumb.status, 200);
    const medium = srv.container.derivatives.thumbnail(ids.red!, 'medium');
    assert.ok(fs.existsSync(medium), 'the first view made the medium thumbnail');
    const before = frames('red')[0]!.vector;
    let r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['semantic'], limit: 500 });
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    const fromMedium = frames('red')[0]!.vector;
    assert.ok(dot(before, fromMedium) > 0.99, 'the same photo either way');
    assert.equal(nearestColour(fromMedium, texts), 'red');

    fs.writeFileSync(medium, Buffer.from('RIFF\0\0\0\0WEBPnot really an image'));
    r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['semantic'], limit: 500 });
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    assert.equal(jobs('red', 'semantic').at(-1)!.state, 'completed');
    assert.equal(nearestColour(frames('red')[0]!.vector, texts), 'red');
    assert.equal(frames('red').length, 1);
  });

  test('a short clip gets its midpoint; a mid-length video the middle of each shot; a one-shot video uniform centres', async () => {
    await upload('clip', colourVideo(path.join(work, 'clip.mp4'), [[RED, 2]]));
    assert.deepEqual(colours('clip'), [[1000, 'red']]);

    await upload('shots', colourVideo(path.join(work, 'shots.mp4'), [[RED, 3], [WHITE, 3], [BLUE, 3]]));
    const shots = colours('shots');
    assert.deepEqual(shots.map(([, c]) => c), ['red', 'white', 'blue'], JSON.stringify(shots));
    for (const [[ts], want] of shots.map((s, i) => [s, [1500, 4500, 7500][i]!] as const)) assert.ok(Math.abs(ts - want) <= 150, `${ts} ≈ ${want}`);
    assert.deepEqual(jobs('shots', 'semantic'), [], 'videos are not the photo task\'s');
    assert.equal(jobs('shots', 'video_semantic').at(-1)!.state, 'completed');

    await upload('oneshot', colourVideo(path.join(work, 'oneshot.mp4'), [[YELLOW, 6]]));
    assert.deepEqual(colours('oneshot'), [375, 1125, 1875, 2625, 3375, 4125, 4875, 5625].map((t) => [t, 'yellow']));
  });

  test('a long video (the settings\' threshold) gets video_max_frames uniform centres; the settings are validated', async () => {
    for (const bad of [{ video_max_frames: 0 }, { video_max_frames: 33 }, { video_long_threshold_s: 1 }, { video_scene_threshold: 0.99 }, { video_max_frames: 2.5 }]) {
      const r = await alice.patch(`${V1}/settings/system`, { ml: bad });
      assert.equal(r.status, 422, `${JSON.stringify(bad)}: ${r.text}`);
      assert.equal(typeof problem(alice, r).code, 'string');
      assert.ok(JSON.stringify(r.body).includes(`ml.${Object.keys(bad)[0]}`), r.text);
    }
    for (const v of Object.values(inBothVariants(alice))) {
      const s = data(v, await v.get(`${V1}/settings/system`));
      assert.deepEqual([s.ml.video_max_frames, s.ml.video_long_threshold_s, s.ml.video_scene_threshold], [8, 300, 0.4], 'the reference defaults');
    }
    const r = await alice.patch(`${V1}/settings/system`, { ml: { video_max_frames: 4, video_long_threshold_s: 6 } });
    assert.equal(r.status, 200, r.text);
    await upload('long', colourVideo(path.join(work, 'long.mp4'), [[RED, 2], [WHITE, 2], [BLUE, 2], [YELLOW, 2]]));
    assert.deepEqual(colours('long'), [[1000, 'red'], [3000, 'white'], [5000, 'blue'], [7000, 'yellow']]);
    // Under the threshold again, with fewer frames than shots (cuts at 2, 4 and 6 s): spread over the shots' middles.
    await alice.patch(`${V1}/settings/system`, { ml: { video_max_frames: 2, video_long_threshold_s: 300 } });
    srv.container.jobs.enqueue(indexAsset, { asset_id: ids.long!, task: 'video_semantic' });
    await srv.container.jobRunner.whenIdle();
    assert.deepEqual(colours('long'), [[3000, 'white'], [7000, 'yellow']]);
    await alice.patch(`${V1}/settings/system`, { ml: { video_max_frames: 8 } });
    srv.container.jobs.enqueue(indexAsset, { asset_id: ids.long!, task: 'video_semantic' });
    await srv.container.jobRunner.whenIdle();
    assert.deepEqual(colours('long').map(([, c]) => c), ['red', 'white', 'blue', 'yellow'], 'the defaults again: every shot');
  });

  test('the stats count indexed photos and videos (both variants); a reindex replaces without duplicating', async () => {
    for (const v of Object.values(inBothVariants(alice))) {
      const s = data(v, await v.get(`${V1}/assets/indexing/stats`));
      assert.deepEqual(s.tasks.semantic, { indexed_count: 6, queued_jobs: 0, total_count: 6 });
      assert.deepEqual(s.tasks.video_semantic, { indexed_count: 4, queued_jobs: 0, total_count: 4 });
    }
    const before = rows();
    const r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['semantic', 'video_semantic'], limit: 500 });
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    assert.equal(rows(), before, 'the same rows, once each');
    const dupes = srv.container.db.prepare('SELECT count(*) FROM (SELECT asset_id, frame_ts_ms FROM semantic_vectors GROUP BY 1, 2 HAVING count(*) > 1)').pluck().get();
    assert.equal(dupes, 0);
  });

  test('a semantic reset wipes every vector (listeners told, after the rebuild job committed) and refills them', async () => {
    const before = rows();
    changes.length = 0;
    const r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['semantic', 'video_semantic'], limit: 500, reset_semantic: true });
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    const first = changes.findIndex((c) => c.kind === 'reset');
    assert.ok(first >= 0, 'a reset was told');
    assert.equal(changes.filter((c) => c.kind === 'reset').length, 1, 'once, though both semantic tasks reset');
    assert.ok(changes.slice(first).filter((c) => c.kind === 'replace').length >= 10, 'then every asset again');
    assert.ok(!changes.slice(0, first).some((c) => c.kind === 'replace'), 'nothing replaced before the wipe was told');
    assert.equal(rows(), before);
    const s = data(alice, await alice.get(`${V1}/assets/indexing/stats`));
    assert.equal(s.tasks.semantic.indexed_count, 6);
  });

  test('an asset deleted for good loses its vectors, and the store tells its listeners with its rowid', async () => {
    const rowid = srv.container.db.prepare('SELECT rowid FROM assets WHERE asset_id = ?').pluck().get(ids.blue) as number;
    changes.length = 0;
    assert.equal((await alice.req('DELETE', `${V1}/assets/${ids.blue}`)).status, 200);
    assert.equal(frames('blue').length, 1, 'the Trash keeps them (a restore needs no reindex)');
    const r = await alice.post(`${V1}/assets/trash/delete`, { asset_ids: [ids.blue] });
    assert.equal(r.status, 200, r.text);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(frames('blue').length, 0);
    assert.deepEqual(changes.filter((c) => c.kind === 'remove'), [{ kind: 'remove', assetId: ids.blue, assetRowid: rowid }]);
    // A replace for an asset that is gone stores nothing and tells nothing.
    assert.equal(srv.container.semantic.store.replace(ids.blue!, MODEL, [{ frameTsMs: -1, vector: texts.red! }]), false);
    assert.equal(changes.filter((c) => c.kind === 'replace').length, 0);
  });

  test('a file that cannot be decoded fails its own job at once with a stable code (photo and video); nothing is stored', async () => {
    const garbage = path.join(work, 'not-media.bin');
    fs.writeFileSync(garbage, Buffer.from('this is not a photo nor a video, only some bytes '.repeat(50)));
    const signal = new AbortController().signal;
    for (const [task, key, type] of [['semantic', 'green', 'PHOTO'], ['video_semantic', 'clip', 'VIDEO']] as const) {
      const indexer = srv.container.indexing.indexers.get(task)!;
      const before = frames(key);
      await assert.rejects(indexer.index({ asset_id: ids[key]!, type, file: garbage }, signal), (e: Error) => {
        assert.equal(e.name, 'PermanentError', `${task}: ${e.name} ${e.message}`);
        assert.match(e.message, /^semantic_unreadable_media: /);
        return true;
      });
      assert.deepEqual(frames(key), before, `${task}: the earlier vectors stay`);
    }
  });

  test('with semantic_enabled off nothing is queued or embedded, and a rebuild of it is refused', async () => {
    assert.equal((await alice.patch(`${V1}/settings/system`, { ml: { semantic_enabled: false } })).status, 200);
    await upload('off', await solidJpeg(path.join(work, 'off.jpg'), GREEN, 480, 360, 7));
    await upload('offclip', colourVideo(path.join(work, 'offclip.mp4'), [[GREEN, 2]]));
    assert.deepEqual(jobs('off', 'semantic'), []);
    assert.deepEqual(jobs('offclip', 'video_semantic'), []);
    assert.deepEqual(frames('off'), []);
    for (const v of Object.values(inBothVariants(alice))) {
      const r = await v.post(`${V1}/assets/indexing/rebuild`, { tasks: ['semantic', 'video_semantic'], limit: 10 });
      assert.equal(r.status, 409, r.text);
      assert.equal(problem(v, r).code, 'index_tasks_disabled');
    }
    assert.equal((await alice.patch(`${V1}/settings/system`, { ml: { semantic_enabled: true } })).status, 200);
    const r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['semantic', 'video_semantic'], limit: 500, missing_only: true });
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    assert.equal(nearestColour(frames('off')[0]!.vector, texts), 'green');
    assert.deepEqual(colours('offclip'), [[1000, 'green']]);
  });
});

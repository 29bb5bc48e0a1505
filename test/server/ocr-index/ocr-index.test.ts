/**
 * The `ocr` indexer through the real server with the verified PP-OCRv4 models of ../shared/models: corpus signs
 * (../shared/corpus/ocr, copied at test time) uploaded over HTTP by two members, OCR queued after processing and
 * run on the ML runtime's worker pool, then getAsset `include_ocr` (both variants), searchOcrText (Latin and CJK
 * top-1, ownership, the Trash), the indexing stats, a reindex that must not duplicate lines, and a damaged image
 * that fails its own job without stopping the pool.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, registerAdmin } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { copyCorpus, uploadFile } from '../uploads/helpers.ts';
import { SHARED_MODELS } from '../ml/models.ts';
import { OCR_MODEL_ID, OcrStore } from '../../../server/src/features/ocr/index.ts';
import { indexAsset } from '../../../server/src/features/indexing/index.ts';

const FILES = { chinese: 'ocr/ocr_03.jpg', japanese: 'ocr/ocr_04.jpg', english: 'ocr/ocr_01.png', french: 'ocr/ocr_02.jpg', plain: 'exif/Canon_40D.jpg' } as const;
type Key = keyof typeof FILES;

interface TextItem {
  id: number;
  text_content: string;
  text_length: number;
  confidence: number;
  area_pixels: number;
  bounding_box: { points: [number, number][]; x: number; y: number; width: number; height: number };
}

describe('OCR indexer: text of photos into the catalog, shown and searchable', { timeout: 600_000 }, () => {
  let srv: TestServer;
  let src: ReturnType<typeof copyCorpus>;
  let alice: Client;
  let bob: Client;
  let aliceId: number;
  let bobId: number;
  const ids = {} as Record<Key, string>;

  const upload = async (who: Client, key: Key) => {
    const r = await uploadFile(srv, who.token!, src.file(FILES[key]));
    assert.equal(r.status, 200, r.text);
    ids[key] = r.body.asset_id as string;
  };
  const search = (userId: number, query: string, limit = 10) =>
    new OcrStore(srv.container.db).searchOcrText(srv.container.access.scope({ userId }, 'asset', 'read', 'a'), query, limit);
  const ocrJobs = (assetId: string) =>
    srv.container.db
      .prepare(`SELECT state, last_error FROM jobs WHERE kind = 'indexing.index-asset' AND json_extract(args, '$.task') = 'ocr' AND json_extract(args, '$.asset_id') = ? ORDER BY id`)
      .all(assetId) as { state: string; last_error: string | null }[];
  const lines = (assetId: string) =>
    srv.container.db.prepare('SELECT line_id, line_no, text FROM ocr_lines WHERE asset_id = ? ORDER BY line_no').all(assetId) as { line_id: number; line_no: number; text: string }[];
  const detail = async (c: Client, assetId: string, q = '?include_ocr=true') => {
    const r = await c.get(`${V1}/assets/${assetId}${q}`);
    assert.equal(r.status, 200, r.text);
    return data(c, r);
  };

  before(async () => {
    src = copyCorpus(Object.values(FILES));
    srv = await startServer({ env: { HEARTH_MODELS_DIR: SHARED_MODELS } });
    alice = new Client(srv.url);
    aliceId = (await registerAdmin(alice)).session.user.user_id;
    bob = new Client(srv.url);
    bobId = (await addMember(alice, bob, 'bob')).session.user.user_id;
    await srv.container.indexing.indexers.settled();
    for (const key of ['chinese', 'japanese', 'english'] as const) await upload(alice, key);
    await upload(bob, 'french');
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    if (src) fs.rmSync(src.dir, { recursive: true, force: true });
  });

  test('with the models verified, OCR is registered and runs after each upload; the stats count what it read', async () => {
    assert.ok(srv.container.indexing.indexers.available('ocr'));
    for (const key of ['chinese', 'japanese', 'english', 'french'] as const) {
      const jobs = ocrJobs(ids[key]);
      assert.ok(jobs.length >= 1 && jobs.every((j) => j.state === 'completed'), `${key}: ${JSON.stringify(jobs)}`);
      assert.ok(lines(ids[key]).length > 0, `${key} has lines`);
    }
    for (const [c, photos] of [[alice, 4], [bob, 1]] as const) {
      for (const v of Object.values(inBothVariants(c))) {
        const s = data(v, await v.get(`${V1}/assets/indexing/stats`));
        assert.deepEqual(s.tasks.ocr, { indexed_count: photos, queued_jobs: 0, total_count: photos });
      }
    }
  });

  test('getAsset include_ocr gives the lines with their text, normalised boxes and confidence (both variants)', async () => {
    for (const [variant, c] of Object.entries(inBothVariants(alice))) {
      const zh = (await detail(c, ids.chinese)).ocr_result;
      const texts = (zh.text_items as TextItem[]).map((t) => t.text_content);
      assert.ok(texts.includes('愚园路') && texts.includes('Yuyuan Rd.'), `${variant}: ${JSON.stringify(texts)}`);
      const ja = (await detail(c, ids.japanese)).ocr_result;
      const joined = (ja.text_items as TextItem[]).map((t) => t.text_content).join(' ');
      for (const word of ['禁止', '港区', 'MINATO', 'LITTER']) assert.ok(joined.includes(word), `${variant}: ${word} in ${joined}`);

      for (const r of [zh, ja]) {
        assert.equal(r.model_id, OCR_MODEL_ID);
        assert.equal(r.total_count, r.text_items.length);
        assert.ok(r.processing_time_ms > 0);
        assert.ok(Date.parse(r.created_at) <= Date.parse(r.updated_at));
        for (const t of r.text_items as TextItem[]) {
          assert.equal(t.text_length, [...t.text_content].length);
          assert.ok(t.confidence > 0 && t.confidence <= 1);
          assert.equal(t.bounding_box.points.length, 4);
          for (const [x, y] of t.bounding_box.points) assert.ok(x >= 0 && x <= 1 && y >= 0 && y <= 1, JSON.stringify(t.bounding_box));
          assert.ok(t.bounding_box.width > 0 && t.bounding_box.height > 0 && t.bounding_box.x + t.bounding_box.width <= 1.0001);
          assert.ok(t.area_pixels > 0);
        }
      }
      // Boxes follow the reading order: "Yuyuan Rd." lies below "愚园路" on the sign.
      const box = (text: string) => (zh.text_items as TextItem[]).find((t) => t.text_content === text)!.bounding_box;
      assert.ok(box('Yuyuan Rd.').y > box('愚园路').y);

      const plain = await detail(c, ids.chinese, '');
      assert.ok(!('ocr_result' in plain), `${variant}: absent unless asked for`);
    }
    // Another member's photo (and so its text) is not theirs to read.
    assert.equal((await bob.get(`${V1}/assets/${ids.chinese}?include_ocr=true`)).status, 404);
  });

  test('searchOcrText finds Latin and CJK words top-1 in the right photo, only among what the caller may see', () => {
    const top = (userId: number, q: string) => search(userId, q)[0]?.asset_id;
    assert.equal(top(aliceId, '禁止'), ids.japanese, 'two CJK characters (below the trigram length)');
    assert.equal(top(aliceId, 'MINATO'), ids.japanese);
    assert.equal(top(aliceId, 'minato'), ids.japanese, 'case-insensitive');
    assert.equal(top(aliceId, '港区 MINATO'), ids.japanese, 'every term, over different lines');
    assert.equal(top(aliceId, '愚园路'), ids.chinese);
    assert.equal(top(aliceId, 'Yuyuan'), ids.chinese);
    assert.equal(top(aliceId, 'soap'), ids.english, 'a word inside a line the recogniser ran together');
    const hits = search(aliceId, 'MINATO');
    assert.deepEqual(hits.map((h) => h.rank), hits.map((_, i) => i + 1));
    assert.ok(hits[0]!.score > 0);

    // Ownership: bob's sign never answers alice, alice's never answer bob.
    assert.equal(top(bobId, 'LOUVRE'), ids.french);
    assert.deepEqual(search(aliceId, 'LOUVRE'), []);
    for (const q of ['禁止', 'MINATO', '愚园路', 'soap']) assert.deepEqual(search(bobId, q), [], q);
    // Nothing to search for: no hits, no error.
    assert.deepEqual(search(aliceId, '   '), []);
    assert.deepEqual(search(aliceId, '%'), []);
  });

  test('a reindex reads every photo again without duplicating a line; the full-text index stays in step', async () => {
    const before = Object.fromEntries((['chinese', 'japanese', 'english', 'french'] as const).map((k) => [k, lines(ids[k]).map((l) => l.text)]));
    const total = () => (srv.container.db.prepare('SELECT count(*) AS n FROM ocr_lines').get() as { n: number }).n;
    const linesBefore = total();
    const jobsBefore = Object.fromEntries((['chinese', 'japanese', 'english', 'french'] as const).map((k) => [k, ocrJobs(ids[k]).length]));
    const r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['ocr'], limit: 500, missing_only: false });
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    for (const k of ['chinese', 'japanese', 'english', 'french'] as const) {
      const jobs = ocrJobs(ids[k]);
      assert.equal(jobs.length, jobsBefore[k]! + 1, k);
      assert.equal(jobs.at(-1)!.state, 'completed', k);
      assert.deepEqual(lines(ids[k]).map((l) => l.text), before[k], `${k}: the same lines, once`);
      assert.deepEqual(lines(ids[k]).map((l) => l.line_no), before[k]!.map((_, i) => i));
    }
    assert.equal(total(), linesBefore);
    // FTS5's own check that the index holds exactly the lines' text (throws otherwise).
    srv.container.db.prepare(`INSERT INTO ocr_lines_fts (ocr_lines_fts, rank) VALUES ('integrity-check', 1)`).run();
    assert.equal(search(aliceId, 'MINATO').length, 1);
    const s = data(alice, await alice.get(`${V1}/assets/indexing/stats`));
    assert.equal(s.tasks.ocr.indexed_count, 4, 'counted once per photo');
  });

  test('a damaged image fails that photo\'s OCR job with a stable code; the pool goes on reading the next one', async () => {
    // Uploaded while OCR is off, so its job is queued by the rebuild below, after its image was damaged: the
    // medium thumbnail (what OCR reads first) is replaced by bytes that are not an image.
    assert.equal((await alice.patch(`${V1}/settings/system`, { ml: { ocr_enabled: false } })).status, 200);
    await upload(alice, 'plain');
    await srv.container.jobRunner.whenIdle();
    assert.deepEqual(ocrJobs(ids.plain), [], 'nothing queued while OCR is off');
    const medium = srv.container.derivatives.thumbnail(ids.plain, 'medium');
    fs.writeFileSync(medium, Buffer.from('RIFF\0\0\0\0WEBPnot really an image'));
    assert.equal((await alice.patch(`${V1}/settings/system`, { ml: { ocr_enabled: true } })).status, 200);

    const r = await alice.post(`${V1}/assets/indexing/rebuild`, { tasks: ['ocr'], limit: 500, missing_only: true });
    assert.equal(r.status, 200, r.text);
    await srv.container.jobRunner.whenIdle();
    const [job] = ocrJobs(ids.plain);
    assert.equal(job?.state, 'discarded', JSON.stringify(job));
    assert.match(job!.last_error ?? '', /ocr_unreadable_image/);
    assert.equal((await detail(alice, ids.plain)).ocr_result, null, 'no text for a photo OCR could not read');
    assert.equal(data(alice, await alice.get(`${V1}/assets/indexing/stats`)).tasks.ocr.indexed_count, 4, 'not counted as read');

    // The pool is still there: the next photo is read.
    const updated = (await detail(alice, ids.japanese)).ocr_result.updated_at as string;
    srv.container.jobs.enqueue(indexAsset, { asset_id: ids.japanese, task: 'ocr' });
    await srv.container.jobRunner.whenIdle();
    assert.equal(ocrJobs(ids.japanese).at(-1)?.state, 'completed');
    const read = (await detail(alice, ids.japanese)).ocr_result;
    assert.ok(read.text_items.some((t: TextItem) => t.text_content.includes('MINATO')));
    assert.ok(read.updated_at > updated, 'read again');
    assert.ok(srv.container.ml.pool.diagnostics().per_task.some((t) => t.task === 'ocr' && t.runs > 0));
  });

  test('photos in the Trash are not found by their text', async () => {
    assert.equal((await alice.req('DELETE', `${V1}/assets/${ids.chinese}`)).status, 200);
    assert.deepEqual(search(aliceId, '愚园路'), []);
    assert.equal(search(aliceId, '禁止')[0]?.asset_id, ids.japanese);
  });
});

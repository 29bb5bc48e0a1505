/**
 * Bad input to the search operations, each a 4xx problem naming the field (both variants), never a crash;
 * and search on a server where CLIP is not installed: searchAssets answers degraded with the other
 * channels, search by image and the classifier preview answer 503 `semantic_unavailable`.
 *
 * The server here has no CLIP (an empty models folder, stand-in off) and one photo of alice's.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, problem, registerAdmin } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { tempModelsDir } from '../ml/models.ts';
import { filesUnder, ingest, solidJpeg } from './helpers.ts';
import { bombPng } from '../../shared/bomb-png.ts';


describe('search: bad input and a server without CLIP', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let modelsDir: string;
  let alice: Client;
  let ids: Record<string, string>;

  before(async () => {
    modelsDir = tempModelsDir();
    srv = await startServer({ env: { HEARTH_MODELS_DIR: modelsDir } });
    alice = new Client(srv.url);
    const s = await registerAdmin(alice);
    ids = await ingest(srv, s.session.user.user_id, { sunset: [{ bytes: await solidJpeg([240, 120, 20]) }, 'holiday/sunset-at-the-beach.jpg'] });
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    if (modelsDir) fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  const refused = async (c: Client, body: unknown, status: number, field: string) => {
    const r = await c.post(`${V1}/assets/search`, body);
    assert.equal(r.status, status, `${JSON.stringify(body).slice(0, 80)}: ${r.text.slice(0, 300)}`);
    const p = problem(c, r);
    assert.ok(p.errors?.some((e) => e.field === field), `${field} named in ${JSON.stringify(p.errors)}`);
    return p;
  };

  test('searchAssets: empty and over-long queries, unknown filter fields, top_results_limit out of range, a bad time zone', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      await refused(c, {}, 422, 'body.query');
      await refused(c, { query: '' }, 422, 'body.query');
      await refused(c, { query: '   \n ' }, 422, 'body.query');
      await refused(c, { query: 'x'.repeat(10_000) }, 422, 'body.query');
      await refused(c, { query: 'beach', filter: { colour: 'red' } }, 422, 'body.filter');
      await refused(c, { query: 'beach', filter: { date: { from: 'yesterday' } } }, 422, 'body.filter.date.from');
      await refused(c, { query: 'beach', top_results_limit: 0 }, 422, 'body.top_results_limit');
      await refused(c, { query: 'beach', top_results_limit: 201 }, 422, 'body.top_results_limit');
      await refused(c, { query: 'beach', pagination: { limit: 0 } }, 422, 'body.pagination.limit');
      await refused(c, { query: 'beach', sort_by: 'size' }, 422, 'body.sort_by');
      await refused(c, { query: 'beach', enhancement_mode: 'llm' }, 422, 'body.enhancement_mode');
      await refused(c, { query: 'beach', ignore_parsed: 'date:0-4' }, 422, 'body.ignore_parsed');
      await refused(c, { query: 'beach', unknown: 1 }, 422, 'body');
      await refused(c, { query: 'from 2023', viewer_timezone: 'Mars/Olympus' }, 400, 'body.viewer_timezone');
      await refused(c, { similar_to_asset_id: '00000000-0000-7000-8000-000000000000' }, 404, 'body.similar_to_asset_id');
      // The longest query allowed is searched.
      const long = await c.post(`${V1}/assets/search`, { query: `sunset ${'word '.repeat(198)}` });
      assert.equal(long.status, 200, long.text);
    }
    // Not JSON at all.
    const r = await alice.req('POST', `${V1}/assets/search`, { body: '{"query": "sun', headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 400);
    problem(alice, r);
  });

  test('without CLIP installed, searchAssets answers degraded and the filename channel still finds the photo', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      const r = data(c, await c.post(`${V1}/assets/search`, { query: 'beach', debug: true }));
      assert.equal(r.top_results_meta.degraded, true);
      assert.equal(r.top_results_meta.reason, 'semantic_unavailable');
      assert.equal(r.top_results_meta.enabled, true, 'switched on, but not installed');
      assert.deepEqual(r.top_items.map((i: { media_item: { primary_asset: { asset_id: string } } }) => i.media_item.primary_asset.asset_id), [ids.sunset]);
      assert.deepEqual(r.top_items[0].match.why, ['filename']);
      const emb = r.top_results_meta.sources.find((s: { type: string }) => s.type === 'embedding');
      assert.match(emb.error, /not_installed|not installed/);
      // similar_to needs no model, but this photo has no vectors: no hits, and the source says why.
      const sim = data(c, await c.post(`${V1}/assets/search`, { similar_to_asset_id: ids.sunset }));
      assert.deepEqual(sim.top_items, []);
      assert.match(sim.top_results_meta.sources[0].error, /no search vectors/);
    }
  });

  const byImage = async (c: Client, fields: Record<string, string | Blob>, headers: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    const res = await fetch(`${srv.url}${V1}/assets/search/by-image`, { method: 'POST', body: form, headers: { authorization: `Bearer ${c.token}`, 'x-api-variant': c.variant, ...headers } });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
  };

  test('searchAssetsByImage: a non-image, a bomb, a malformed JSON filter, bad numbers: 422 naming the field; nothing written', async () => {
    const before = filesUnder(srv.dataDir).filter((f) => !f.startsWith('catalog.sqlite3'));
    const jpeg = new Blob([await solidJpeg([10, 10, 200])]);
    for (const c of Object.values(inBothVariants(alice))) {
      const cases: [Record<string, string | Blob>, string, string?][] = [
        [{ image: new Blob([Buffer.from('this is a text file, not a photo')]) }, 'body.image', 'image_unreadable'],
        [{ image: new Blob([bombPng()]) }, 'body.image', 'image_too_large'],
        [{ image: new Blob([]) }, 'body.image', 'image_unreadable'],
        [{ image: new Blob([(await solidJpeg([1, 2, 3])).subarray(0, 300)]) }, 'body.image', 'image_unreadable'],
        [{ filter: '{}' }, 'body.image'],
        [{ image: 'not a file' }, 'body.image'],
        [{ image: jpeg, filter: '{"type": "PHOTO"' }, 'body.filter'],
        [{ image: jpeg, filter: '{"colour": "blue"}' }, 'body.filter'],
        [{ image: jpeg, filter: '{"type": "PICTURE"}' }, 'body.filter.type'],
        [{ image: jpeg, top_results_limit: '201' }, 'body.top_results_limit'],
        [{ image: jpeg, top_results_limit: '0' }, 'body.top_results_limit'],
        [{ image: jpeg, limit: 'ten' }, 'body.limit'],
      ];
      for (const [fields, field, code] of cases) {
        const r = await byImage(c, fields);
        assert.equal(r.status, 422, `${field}: ${r.text}`);
        const p = problem(c, r);
        const named = p.errors?.find((e) => e.field === field);
        assert.ok(named, `${field} named in ${JSON.stringify(p.errors)}`);
        if (code) assert.equal((named as { code?: string }).code, code);
      }
      // Not multipart at all.
      const json = await c.post(`${V1}/assets/search/by-image`, { image: 'x' });
      assert.ok(json.status === 400 || json.status === 415, json.text);
      problem(c, json);
      // A photo it can read, but no CLIP to compare it with.
      const ok = await byImage(c, { image: jpeg });
      assert.equal(ok.status, 503, ok.text);
      assert.equal(problem(c, ok).code, 'semantic_unavailable');
    }
    assert.deepEqual(filesUnder(srv.dataDir).filter((f) => !f.startsWith('catalog.sqlite3')), before, 'nothing of the uploads stayed');
    // The server still answers.
    assert.equal((await alice.get(`${V1}/auth/me`)).status, 200);
  });

  test('previewClassifier: no positive prompts, empty prompts, threshold out of range or missing; 503 without CLIP', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      for (const [body, field] of [
        [{ positive: [], threshold: 0.03 }, 'body.positive'],
        [{ threshold: 0.03 }, 'body.positive'],
        [{ positive: ['  '], threshold: 0.03 }, 'body.positive.0'],
        [{ positive: ['a receipt'], threshold: 1.5 }, 'body.threshold'],
        [{ positive: ['a receipt'], threshold: -2 }, 'body.threshold'],
        [{ positive: ['a receipt'] }, 'body.threshold'],
        [{ positive: ['a receipt'], negative: ['x'.repeat(201)], threshold: 0 }, 'body.negative.0'],
        [{ positive: Array.from({ length: 17 }, (_, i) => `p${i}`), threshold: 0 }, 'body.positive'],
      ] as const) {
        const r = await c.post(`${V1}/classifiers/preview`, body);
        assert.equal(r.status, 422, `${field}: ${r.text}`);
        assert.ok(problem(c, r).errors?.some((e) => e.field === field), `${field}: ${r.text}`);
      }
      const r = await c.post(`${V1}/classifiers/preview`, { positive: ['a receipt'], threshold: 0.03 });
      assert.equal(r.status, 503);
      assert.equal(problem(c, r).code, 'semantic_unavailable');
    }
  });
});

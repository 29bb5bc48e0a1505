/**
 * searchAssets, searchAssetsByImage, previewClassifier and queryAssets `search_type: semantic` through the
 * real server with the stand-in CLIP (colour only) and the verified OCR models: photos made with sharp
 * (solid red, green, blue) and corpus photos (near-duplicate sets, OCR signs) ingested for two members,
 * their vectors made with the server's CLIP, OCR run by its indexer. Both response variants.
 *
 * Shown: "red" ranks the red photos first; OCR signs top-1 (Latin and CJK) with the line as the why;
 * filename, tag, album and description hits with their why; similar_to and search by image find the
 * near-identical corpus photos first (a HEIC query decoded in memory, nothing written to disk); the
 * parsed filter echoed as chips and ignore_parsed honoured; debug figures; ownership in every channel;
 * the classifier preview on colour prompts; degraded mode when CLIP is switched off.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import sharp from 'sharp';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { corpusFile } from '../repositories/helpers.ts';
import { colourClip, embedLibrary, filesUnder, ingest, searchModelsDir, solidJpeg, videoFrameTimes } from './helpers.ts';

interface Item {
  media_item: { primary_asset: { asset_id: string } };
  match: { score: number; why: string[]; sources: string[]; frame_ts_ms: number | null };
}

describe('hybrid search with the stand-in CLIP and the OCR models', { timeout: 900_000 }, () => {
  let srv: TestServer;
  let modelsDir: string;
  let alice: Client;
  let bob: Client;
  let a: Record<string, string>;
  let b: Record<string, string>;
  let aliceId: number;
  let bobId: number;

  const keyOf = (id: string) => Object.entries({ ...a, ...Object.fromEntries(Object.entries(b).map(([k, v]) => [`bob.${k}`, v])) }).find(([, v]) => v === id)?.[0] ?? id;
  const keys = (items: Item[]) => items.map((i) => keyOf(i.media_item.primary_asset.asset_id));
  const search = async (c: Client, body: object, status = 200) => {
    const r = await c.post(`${V1}/assets/search`, body);
    assert.equal(r.status, status, r.text);
    return data(c, r);
  };

  before(async () => {
    modelsDir = await searchModelsDir();
    srv = await startServer({ env: { HEARTH_MODELS_DIR: modelsDir, HEARTH_CLIP_STANDIN: '1' } });
    alice = new Client(srv.url);
    await registerAdmin(alice);
    bob = new Client(srv.url);
    await addMember(alice, bob, 'bob');
    aliceId = srv.container.db.prepare("SELECT user_id FROM users WHERE username = 'alice'").pluck().get() as number;
    bobId = srv.container.db.prepare("SELECT user_id FROM users WHERE username = 'bob'").pluck().get() as number;
    await srv.container.indexing.indexers.settled();
    a = await ingest(srv, aliceId, {
      red: [{ bytes: await solidJpeg([220, 20, 20]) }, 'made/plain-one.jpg'],
      green: [{ bytes: await solidJpeg([25, 165, 40]) }, 'made/plain-two.jpg'],
      blue: [{ bytes: await solidJpeg([25, 60, 215]) }, 'made/plain-three.jpg'],
      ridge: [{ corpus: 'duplicates/tanners_ridge.jpg' }, 'trips/tanners_ridge.jpg'],
      ridgeEdited: [{ corpus: 'duplicates/tanners_ridge_edited.jpg' }, 'trips/tanners_ridge_edited.jpg'],
      portrait720: [{ corpus: 'duplicates/portrait_720p.jpg' }, 'people/portrait_720p.jpg'],
      portrait240: [{ corpus: 'duplicates/portrait_240p.jpg' }, 'people/portrait_240p.jpg'],
      bee: [{ corpus: 'duplicates/bee.jpg' }, 'garden/bee.jpg'],
      rocks: [{ corpus: 'duplicates/exact_el_torcal_rocks.jpg' }, 'trips/el_torcal_rocks.jpg'],
      signZh: [{ corpus: 'ocr/ocr_03.jpg' }, 'signs/ocr_03.jpg'],
      signEn: [{ corpus: 'ocr/ocr_01.png' }, 'signs/ocr_01.png'],
    });
    b = await ingest(srv, bobId, {
      red: [{ bytes: await solidJpeg([225, 15, 15]) }, 'bob/bobs-secret-beach.jpg'],
      signFr: [{ corpus: 'ocr/ocr_02.jpg' }, 'bob/ocr_02.jpg'],
    });
    assert.equal(await embedLibrary(srv), 13);
    // A clip that is purple for two seconds, then yellow: its frames at 1 s and 3 s are its vectors.
    const clip = colourClip(['801F99', 'F2E01A']);
    const video = await ingest(srv, aliceId, { clip: [{ bytes: clip }, 'clips/colours.mp4'] });
    a.clip = video.clip;
    // The video indexer takes the middle of each shot (features/semantic/video-frames.ts).
    assert.deepEqual(await videoFrameTimes(srv, video.clip!), [1000, 3000]);
    // The words a person wrote: alice's tags, album and description; bob's tag on his own photo.
    assert.equal((await alice.post(`${V1}/assets/${a.bee}/tags`, { tag_name: 'Insects' })).status, 200);
    const album = data(alice, await alice.post(`${V1}/albums`, { album_name: 'Summer in Spain' }));
    assert.equal((await alice.post(`${V1}/assets/${a.rocks}/albums/${album.album_id}`)).status, 200);
    assert.equal((await alice.put(`${V1}/assets/${a.portrait720}/description`, { description: 'Speech at the summit' })).status, 200);
    assert.equal((await bob.post(`${V1}/assets/${b.red}/tags`, { tag_name: 'insects' })).status, 200);
    // Issue 24: a drone's thermal photo (EXIF DJI / FLIR: the camera is in alice's catalog), a file whose NAME says
    // DJI_FLIR (no EXIF), one whose name holds "tel" inside a word, one named after a year it was not taken in,
    // and a photo described as taken in Tel Aviv.
    const grey = (v: number) => solidJpeg([v, v, v]);
    const thermal = await sharp(await grey(70)).withExif({ IFD0: { Make: 'DJI', Model: 'FLIR' } }).toBuffer();
    Object.assign(
      a,
      await ingest(srv, aliceId, {
        thermal: [{ bytes: thermal }, 'drone/thermal.jpg'],
        djiName: [{ bytes: await grey(80) }, 'drone/DJI_FLIR_0042.jpg'],
        titelsong: [{ bytes: await grey(90) }, 'music/TITELSONG_cover.jpg'],
        parade: [{ bytes: await grey(100) }, 'scans/parade_2019.jpg'],
        telAviv: [{ bytes: await grey(110) }, 'trips/evening.jpg'],
      }),
    );
    assert.equal((await alice.put(`${V1}/assets/${a.telAviv}/description`, { description: 'Sunset in Tel Aviv' })).status, 200);
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    if (modelsDir) fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  test('"red" ranks the red photo first, "green" and "blue" theirs; every item says why (both variants)', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      for (const colour of ['red', 'green', 'blue'] as const) {
        const r = await search(c, { query: colour });
        assert.equal(keys(r.top_items)[0], colour, `${c.variant} ${colour}: ${JSON.stringify(keys(r.top_items))}`);
        const best = new Set(keys(r.top_items));
        assert.deepEqual(keys(r.result_items).filter((k) => best.has(k)), keys(r.top_items), 'relevance: results in the fused order');
        const first = r.top_items[0] as Item;
        assert.ok(first.match.sources.includes('embedding'));
        assert.ok(first.match.why.includes('looks like your query'), JSON.stringify(first.match));
        assert.ok(first.match.score > 0);
        assert.equal(first.match.frame_ts_ms, null, 'a photo has no frame');
        assert.equal(r.top_results_meta.degraded, false);
        assert.equal(r.top_results_meta.reason, null);
        assert.deepEqual(r.top_results_meta.source_types, ['embedding', 'place', 'ocr', 'filename', 'text']);
        assert.ok(!keys(r.result_items).includes('bob.red'), 'never another member’s photo');
      }
    }
  });

  test('a video is found by its best frame, and says which frame (match.frame_ts_ms)', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      for (const [colour, frame] of [
        ['yellow', 3000],
        ['purple', 1000],
      ] as const) {
        const r = await search(c, { query: colour });
        const top = r.top_items[0] as Item;
        assert.equal(keyOf(top.media_item.primary_asset.asset_id), 'clip', `${colour}: ${JSON.stringify(keys(r.top_items))}`);
        assert.equal(top.match.frame_ts_ms, frame);
      }
      const videos = await search(c, { query: 'yellow videos' });
      assert.deepEqual(keys(videos.result_items), ['clip'], 'the parsed type holds');
      const similar = await search(c, { similar_to_asset_id: a.clip });
      assert.ok(!keys(similar.result_items).includes('clip'), 'not itself');
    }
  });

  test('OCR signs are found top-1, Latin and CJK, with the line that matched as the why', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      for (const [q, key, line] of [
        ['Yuyuan', 'signZh', 'Yuyuan'],
        ['愚园路', 'signZh', '愚园路'],
        ['soap', 'signEn', ''],
      ] as const) {
        const r = await search(c, { query: q });
        const top = r.top_items[0] as Item;
        assert.equal(keyOf(top.media_item.primary_asset.asset_id), key, `${q}: ${JSON.stringify(keys(r.top_items))}`);
        assert.ok(top.match.sources.includes('ocr'));
        const why = top.match.why.find((w) => w.startsWith('text '));
        assert.ok(why && why.toLowerCase().includes((line || q).toLowerCase()), `${q}: ${JSON.stringify(top.match.why)}`);
      }
    }
  });

  test('filename, tag, album and description hits say which (the words a person wrote are channel `text`)', async () => {
    const c = inBothVariants(alice).B;
    const byName = await search(c, { query: 'tanners' });
    assert.deepEqual(keys(byName.top_items).sort(), ['ridge', 'ridgeEdited']);
    for (const i of byName.top_items as Item[]) assert.ok(i.match.why.includes('filename') && i.match.sources.includes('filename'));

    const tagged = await search(c, { query: 'insects' });
    assert.deepEqual(keys(tagged.top_items), ['bee'], 'bob’s tag on his own photo never answers alice');
    assert.ok((tagged.top_items[0] as Item).match.why.includes("tag 'Insects'"));
    assert.deepEqual((tagged.top_items[0] as Item).match.sources, ['text']);

    const album = await search(c, { query: 'summer spain' });
    assert.equal(keys(album.top_items)[0], 'rocks');
    assert.ok((album.top_items[0] as Item).match.why.includes("album 'Summer in Spain'"));

    const described = await search(c, { query: 'summit' });
    assert.deepEqual(keys(described.top_items), ['portrait720']);
    assert.ok((described.top_items[0] as Item).match.why.includes('description'));
  });

  test('debug gives each shown result its rank, raw score, RRF score and weight per channel', async () => {
    const r = await search(alice, { query: 'red plain', debug: true });
    const top = r.top_items[0] as Item;
    assert.equal(keyOf(top.media_item.primary_asset.asset_id), 'red', 'found by its colour and its file name');
    const d = r.top_results_meta.debug.find((x: { asset_id: string }) => x.asset_id === a.red);
    assert.deepEqual(Object.keys(d.contributions).sort(), ['embedding', 'filename']);
    assert.equal(d.contributions.embedding.weight, 1);
    assert.equal(d.contributions.filename.weight, 0.6);
    assert.equal(d.contributions.embedding.rank, 1);
    assert.ok(d.contributions.embedding.raw_score >= 0.7, 'above the (stand-in’s) cosine floor');
    const sum = d.contributions.embedding.rrf_score + d.contributions.filename.rrf_score;
    assert.ok(Math.abs(sum - d.score) < 1e-5);
    assert.ok(Math.abs(d.contributions.embedding.rrf_score - 1 / 61) < 1e-5, 'weight / (60 + rank)');
    for (const s of r.top_results_meta.sources) {
      assert.ok(['embedding', 'place', 'ocr', 'filename', 'text'].includes(s.type));
      assert.ok(s.duration_ms >= 0 && s.candidate_count >= 0 && s.error === null);
    }
    assert.equal(r.top_results_meta.sources.find((s: { type: string }) => s.type === 'filename').candidate_count, 3, 'plain-one, plain-two, plain-three');
    assert.ok(!('debug' in (await search(alice, { query: 'red' })).top_results_meta), 'only when asked for');
  });

  test('result_items are the same set under sort_by, paged; top_results_limit cuts the best row', async () => {
    const r = await search(alice, { query: 'plain', sort_by: 'recently_added', top_results_limit: 2, pagination: { limit: 2, offset: 1 } });
    assert.equal(r.top_items.length, 2);
    assert.equal(r.results_total_media_items, 3);
    // Ingested in the order one, two, three: newest first is three, two, one; the page skips one.
    assert.deepEqual(keys(r.result_items), ['green', 'red']);
    assert.equal(r.limit, 2);
    assert.equal(r.offset, 1);
  });

  test('similar_to_asset_id finds the near-identical corpus photos first, never the photo itself', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      for (const [key, twin] of [
        ['ridge', 'ridgeEdited'],
        ['ridgeEdited', 'ridge'],
        ['portrait720', 'portrait240'],
        ['portrait240', 'portrait720'],
      ] as const) {
        const r = await search(c, { similar_to_asset_id: a[key] });
        const got = keys(r.top_items);
        assert.equal(got[0], twin, `${key}: ${JSON.stringify(got)}`);
        assert.ok(!got.includes(key), 'not itself');
        assert.ok((r.top_items[0] as Item).match.why.includes('looks like this photo'));
      }
    }
    // Another member's photo cannot be the query: 404, as if it did not exist.
    const r = await alice.post(`${V1}/assets/search`, { similar_to_asset_id: b.red });
    assert.equal(r.status, 404);
    assert.ok(problem(alice, r).errors?.some((e) => e.field === 'body.similar_to_asset_id'));
  });

  test('search by image: a HEIC of the bee finds the JPEG bee first; decoded in memory, nothing written', async () => {
    const before = filesUnder(srv.dataDir).filter((f) => !f.startsWith('catalog.sqlite3'));
    for (const c of Object.values(inBothVariants(alice))) {
      const form = new FormData();
      form.set('image', new Blob([fs.readFileSync(corpusFile('duplicates/bee.heic'))]), 'bee.heic');
      form.set('top_results_limit', '5');
      const r = await byImage(c, form);
      assert.equal(r.status, 200, r.text);
      const body = data(c, r);
      assert.equal(keys(body.top_items)[0], 'bee', JSON.stringify(keys(body.top_items)));
      assert.ok(body.top_items.length <= 5);
      assert.ok(!keys(body.result_items).includes('bob.red'));

      // A filter comes as JSON in the form.
      const red = new FormData();
      red.set('image', new Blob([await solidJpeg([200, 30, 30])]), 'q.jpg');
      red.set('filter', JSON.stringify({ filename: { value: 'plain' } }));
      const rr = data(c, await byImage(c, red));
      assert.deepEqual(keys(rr.result_items), ['red']);
    }
    assert.deepEqual(filesUnder(srv.dataDir).filter((f) => !f.startsWith('catalog.sqlite3')), before, 'the data folder gained no file');
  });

  const byImage = (c: Client, form: FormData) =>
    fetch(`${srv.url}${V1}/assets/search/by-image`, { method: 'POST', body: form, headers: { authorization: `Bearer ${c.token}`, 'x-api-variant': c.variant } }).then(async (res) => {
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
    });

  test('the parsed query is echoed as chips and filters; the request’s filter wins; ignore_parsed undoes a chip', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      const r = await search(c, { query: 'red videos' });
      assert.equal(r.parsed.rest, 'red');
      assert.deepEqual(r.parsed.filter, { type: 'VIDEO' });
      assert.equal(r.parsed.chips.length, 1);
      const chip = r.parsed.chips[0];
      assert.deepEqual({ kind: chip.kind, label: chip.label, text: chip.text }, { kind: 'media_type', label: 'Videos', text: 'videos' });
      assert.deepEqual(r.result_items, [], 'no red video');

      const undone = await search(c, { query: 'red videos', ignore_parsed: [chip.id] });
      assert.equal(undone.parsed.rest, 'red videos');
      assert.deepEqual(undone.parsed.chips, []);
      assert.equal(keys(undone.top_items)[0], 'red', 'the colour still finds it; "videos" is only a word now');

      const mine = await search(c, { query: 'red videos', filter: { type: 'PHOTO' } });
      assert.deepEqual(mine.parsed.filter, { type: 'VIDEO' }, 'the parsed filter is echoed as parsed');
      assert.equal(keys(mine.top_items)[0], 'red', 'the request’s type wins over the parsed one');

      // A query the parser reads entirely: the filtered list is the answer, no channel runs.
      const photos = await search(c, { query: 'photos', pagination: { limit: 100 } });
      assert.equal(photos.parsed.rest, '');
      assert.deepEqual(photos.top_items, []);
      assert.equal(photos.results_total_media_items, 16);
      assert.deepEqual(photos.top_results_meta.sources, []);

      const only = await search(c, { query: 'red videos', enhancement_mode: 'only' });
      assert.equal(only.parsed.rest, '', '`only`: the understood filter alone');
      assert.deepEqual(keys(only.result_items), ['clip'], 'every video, "red" not searched');

      const off = await search(c, { query: 'red videos', enhancement_mode: 'off' });
      assert.deepEqual(off.parsed.chips, []);
      assert.equal(keys(off.top_items)[0], 'red');
    }
  });

  test('ownership in every channel: bob’s OCR text, filenames, tags and vectors never answer alice, and the other way round', async () => {
    const none = async (c: Client, q: object, notKeys: string[]) => {
      const r = await search(c, q);
      for (const k of notKeys) assert.ok(!keys([...r.top_items, ...r.result_items]).includes(k), `${JSON.stringify(q)} → ${keys(r.result_items)}`);
      return r;
    };
    assert.deepEqual((await none(alice, { query: 'LOUVRE' }, ['bob.signFr'])).result_items, [], 'his sign’s text');
    assert.deepEqual((await none(alice, { query: 'secret' }, ['bob.red'])).result_items, [], 'his file name');
    await none(alice, { query: 'red' }, ['bob.red']);
    const his = await search(bob, { query: 'LOUVRE' });
    assert.deepEqual(keys(his.top_items), ['bob.signFr'], 'his own sign is his');
    const hisRed = await search(bob, { query: 'red' });
    assert.deepEqual(keys(hisRed.result_items), ['bob.red'], 'his vectors only');
    await none(bob, { query: 'Yuyuan' }, ['signZh']);
    await none(bob, { query: 'tanners' }, ['ridge', 'ridgeEdited']);
  });

  test('queryAssets with search_type semantic answers through the embedding channel (both variants)', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      const r = await c.post(`${V1}/assets/query`, { query: 'blue', search_type: 'semantic' });
      assert.equal(r.status, 200, r.text);
      const list = data(c, r);
      assert.equal(keys(list.items)[0], 'blue');
      assert.equal(list.total_media_items, list.items.length);
      assert.ok(!keys(list.items).includes('bob.red'));
      const filtered = data(c, await c.post(`${V1}/assets/query`, { query: 'blue', search_type: 'semantic', filter: { filename: { value: 'trips' } } }));
      assert.ok(!keys(filtered.items).includes('blue'), 'the filter holds');
    }
  });

  test('previewClassifier: colour prompts find the photos of that colour, best first, the caller’s only', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      const r = await c.post(`${V1}/classifiers/preview`, { positive: ['a red photo'], negative: ['a green photo', 'a blue photo'], threshold: 0.3 });
      assert.equal(r.status, 200, r.text);
      const p = data(c, r);
      assert.equal(p.count, p.matches.length);
      assert.equal(keyOf(p.matches[0].asset_id), 'red');
      assert.ok(!p.matches.some((m: { asset_id: string }) => m.asset_id === b.red), 'not bob’s red photo');
      assert.ok(!p.matches.some((m: { asset_id: string }) => m.asset_id === a.green || m.asset_id === a.blue));
      for (let i = 1; i < p.matches.length; i++) assert.ok(p.matches[i - 1].score >= p.matches[i].score);
      const bg = data(c, await c.post(`${V1}/classifiers/preview`, { positive: ['green'], threshold: 0.3 }));
      assert.equal(keyOf(bg.matches[0].asset_id), 'green', 'against the background prompts');
    }
  });

  test('a partner’s shared library is searched as the timeline shows it: with owner_id, or once shown in the timeline; not after the share ends', async () => {
    const found = async (q: object) => keys((await search(alice, q)).result_items);
    const share = data(bob, await bob.post(`${V1}/partner-shares`, { partner_user_id: aliceId }));
    try {
      assert.ok(!(await found({ query: 'LOUVRE' })).includes('bob.signFr'), 'not in her timeline yet');
      const asked = { filter: { owner_id: bobId } };
      assert.deepEqual(await found({ query: 'LOUVRE', ...asked }), ['bob.signFr'], 'his OCR text');
      assert.deepEqual(await found({ query: 'secret', ...asked }), ['bob.red'], 'his file name');
      assert.deepEqual(await found({ query: 'insects', ...asked }), ['bob.red'], 'his tag');
      assert.equal((await found({ query: 'red', ...asked }))[0], 'bob.red', 'his vectors');
      assert.equal((await alice.put(`${V1}/partner-shares/${share.share_id}`, { show_in_timeline: true })).status, 200);
      assert.deepEqual(await found({ query: 'LOUVRE' }), ['bob.signFr'], 'shown in her timeline: searched too');
      const red = await found({ query: 'red' });
      assert.ok(red.includes('red') && red.includes('bob.red'));
    } finally {
      assert.equal((await bob.req('DELETE', `${V1}/partner-shares/${share.share_id}`)).status, 200);
    }
    assert.deepEqual(await found({ query: 'LOUVRE' }), [], 'the share ended');
    assert.ok(!(await found({ query: 'red' })).includes('bob.red'));
  });

  test('without CLIP (switched off) the answer is degraded and the other channels answer', async () => {
    const set = async (on: boolean) => assert.equal((await alice.patch(`${V1}/settings/system`, { ml: { semantic_enabled: on } })).status, 200);
    await set(false);
    try {
      for (const c of Object.values(inBothVariants(alice))) {
        const r = await search(c, { query: 'Yuyuan' });
        assert.equal(r.top_results_meta.degraded, true);
        assert.equal(r.top_results_meta.reason, 'semantic_unavailable');
        assert.equal(r.top_results_meta.enabled, false);
        assert.equal(keys(r.top_items)[0], 'signZh', 'OCR still answers');
        const emb = r.top_results_meta.sources.find((s: { type: string }) => s.type === 'embedding');
        assert.ok(emb.error && emb.candidate_count === 0);
        const q = await c.post(`${V1}/assets/query`, { query: 'blue', search_type: 'semantic' });
        assert.equal(q.status, 503);
        assert.equal(problem(c, q).code, 'semantic_search_unavailable');
        const p = await c.post(`${V1}/classifiers/preview`, { positive: ['red'], threshold: 0.1 });
        assert.equal(p.status, 503);
        assert.equal(problem(c, p).code, 'semantic_unavailable');
      }
    } finally {
      await set(true);
    }
  });

  // Issue 24, item 1: words the parser could take as a filter are also searched as words; the results decide.
  test('a file name the parser reads as a camera ("DJI_FLIR") is searched as words; the filter reading is offered (both variants)', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      const r = await search(c, { query: 'DJI_FLIR' });
      assert.equal(r.parsed.reading, 'words', JSON.stringify(r.parsed));
      assert.deepEqual(r.parsed.chips, [], 'no filter applied');
      assert.equal(r.parsed.rest, 'DJI_FLIR');
      assert.equal(keys(r.top_items)[0], 'djiName', JSON.stringify(keys(r.top_items)));
      assert.ok((r.top_items[0] as Item).match.why.includes('filename'));
      assert.equal(r.top_results_meta.matched_well, true);
      assert.equal(r.parsed.other_reading.reading, 'filters');
      assert.deepEqual(
        r.parsed.other_reading.chips.map((ch: { kind: string; label: string }) => [ch.kind, ch.label]),
        [['camera_model', 'Camera FLIR']],
      );

      // Asked for, the filter reading: the camera's photo, and the words reading offered with its count unknown.
      const f = await search(c, { query: 'DJI_FLIR', reading: 'filters' });
      assert.equal(f.parsed.reading, 'filters');
      assert.deepEqual(keys(f.result_items), ['thermal']);
      assert.deepEqual(f.parsed.filter, { camera_model: 'FLIR' });
      assert.deepEqual(f.parsed.other_reading, { reading: 'words', rest: 'DJI_FLIR', chips: [], results_total: null });
    }
  });

  test('the class: a year in a file name is words too; a filter with no such words stays a filter, the words reading offered', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      const year = await search(c, { query: '2019' });
      assert.equal(year.parsed.reading, 'words');
      assert.deepEqual(keys(year.top_items), ['parade']);
      assert.equal(year.parsed.other_reading.chips[0].kind, 'date');

      const videos = await search(c, { query: 'red videos' });
      assert.equal(videos.parsed.reading, 'filters', 'no file, text or words have "red" and "videos": the filter reading');
      assert.equal(videos.parsed.other_reading.reading, 'words');
      assert.equal(typeof videos.parsed.other_reading.results_total, 'number');
      const asWords = await search(c, { query: 'red videos', reading: 'words' });
      assert.equal(asWords.parsed.reading, 'words');
      assert.equal(keys(asWords.result_items)[0], 'red');
      assert.equal(asWords.parsed.other_reading.chips[0].kind, 'media_type');
    }
  });

  // Issue 24, item 2: little words never match inside other words; a phrase's words are words; best results are strong.
  test('"dog on a beach": "on" and "a" find nothing inside words, so nothing matches and the answer says so (both variants)', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      const r = await search(c, { query: 'dog on a beach' });
      assert.deepEqual(keys(r.result_items), [], 'not plain-one.jpg ("on"), not the WHO sign ("infection", "a")');
      assert.deepEqual(r.top_items, []);
      assert.equal(r.top_results_meta.matched_well, false);
      const soap = await search(c, { query: 'soap beach' });
      assert.deepEqual(keys(soap.result_items), ['signEn'], 'one of the words is on the sign: a result…');
      assert.deepEqual(soap.top_items, [], '…but not a best result');
      assert.equal(soap.top_results_meta.matched_well, false);
      const both = await search(c, { query: 'soap and water' });
      assert.deepEqual(keys(both.top_items), ['signEn'], 'every word on the sign: a best result');
      assert.equal(both.top_results_meta.matched_well, true);
    }
  });

  test('"Tel Aviv" finds the photo described so, not "TITELSONG"; "tel" alone finds it only as a weak result (both variants)', async () => {
    for (const c of Object.values(inBothVariants(alice))) {
      const r = await search(c, { query: 'Tel Aviv' });
      assert.deepEqual(keys(r.result_items), ['telAviv']);
      assert.deepEqual(keys(r.top_items), ['telAviv']);
      const tel = await search(c, { query: 'tel' });
      assert.ok(keys(tel.result_items).includes('titelsong'), 'a lone word is also found inside a file name');
      assert.ok(!keys(tel.top_items).includes('titelsong'), 'but inside a word is no best result');
      assert.ok(keys(tel.top_items).includes('telAviv'), 'as a word it is');
    }
  });
});

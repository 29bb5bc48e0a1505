/**
 * The trigram index over file names and descriptions (migration 0019_search_words_fts.sql) that the
 * `filename` and `text` channels of searchAssets read: kept current when a photo is added, renamed,
 * described, re-described and deleted for good, used by the channels' statements (not a LIKE scan of
 * every row), and answering the same as the scans did (any substring, case ignored; words shorter than
 * a trigram still found). Real server, real ingest of
 * photos made with sharp, searchAssets over HTTP in both response variants (CLIP is off: the
 * search answers degraded, the filename channel answers).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, registerAdmin } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { OcrStore, type Quad } from '../../../server/src/features/ocr/index.ts';
import { ingest, solidJpeg } from './helpers.ts';

interface Item {
  media_item: { primary_asset: { asset_id: string } };
  match: { why: string[]; sources: string[] };
}

describe('the words index of the filename and text channels', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let ids: Record<'beach' | 'beachToo' | 'camera' | 'plain', string>;

  /** The ids the filename channel found for `query`, in fused order, asked in variant `c`. */
  const byName = (c: Client, query: string) => byChannel(c, query, 'filename');
  const byDescription = async (c: Client, query: string) =>
    (await byChannel(c, query, 'text', true)).filter((i) => i.match.why.includes('description')).map((i) => i.media_item.primary_asset.asset_id);
  async function byChannel(c: Client, query: string, channel: string): Promise<string[]>;
  async function byChannel(c: Client, query: string, channel: string, items: true): Promise<Item[]>;
  async function byChannel(c: Client, query: string, channel: string, items?: true): Promise<string[] | Item[]> {
    const r = await c.post(`${V1}/assets/search`, { query, debug: true });
    assert.equal(r.status, 200, r.text);
    const body = data(c, r);
    const source = (body.top_results_meta.sources as { type: string; error: string | null }[]).find((s) => s.type === channel);
    assert.ok(source, `${c.variant} ${query}: the ${channel} channel ran`);
    assert.equal(source.error, null);
    const found = (body.result_items as Item[]).filter((i) => i.match.sources.includes(channel));
    return items ? found : found.map((i) => i.media_item.primary_asset.asset_id);
  }
  const keysOf = (found: string[]) => found.map((id) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id).sort();

  before(async () => {
    srv = await startServer();
    alice = new Client(srv.url);
    await registerAdmin(alice);
    const aliceId = srv.container.db.prepare("SELECT user_id FROM users WHERE username = 'alice'").pluck().get() as number;
    ids = await ingest(srv, aliceId, {
      beach: [{ bytes: await solidJpeg([200, 180, 120]) }, 'trips/Sunny_BEACH_day.jpg'],
      beachToo: [{ bytes: await solidJpeg([190, 170, 110]) }, 'trips/beachcomber.jpg'],
      camera: [{ bytes: await solidJpeg([60, 60, 60]) }, 'gear/a7_test.jpg'],
      plain: [{ bytes: await solidJpeg([10, 90, 200]) }, 'misc/IMG_0001.jpg'],
    });
  });
  after(async () => {
    await srv?.stop();
  });

  test('every name added is in the index, found as a word or, where no name has it whole, inside a word, case ignored, in both variants', async () => {
    const { db } = srv.container;
    const indexed = db.prepare("SELECT count(*) FROM assets_words_fts WHERE assets_words_fts MATCH 'original_filename : \"beach\"'").pluck().get();
    assert.equal(indexed, 2, 'both beach names are in the index');
    for (const c of Object.values(inBothVariants(alice))) {
      // A word found whole ("Sunny_BEACH_day") hides the same letters inside a longer word ("beachcomber"):
      // inside-word matches are listed only where nothing has the word whole (channels/words.ts).
      assert.deepEqual(keysOf(await byName(c, 'beach')), ['beach'], `${c.variant}: beach`);
      assert.deepEqual(keysOf(await byName(c, 'Comber')), ['beachToo'], `${c.variant}: a substring inside a word`);
      // Two characters: below a trigram, read with LIKE.
      assert.deepEqual(keysOf(await byName(c, 'a7')), ['camera'], `${c.variant}: a short word`);
    }
  });

  test('descriptions written, edited and cleared are found through the index, in both variants', async () => {
    const { db } = srv.container;
    const describe = async (id: string, description: string) =>
      assert.equal((await alice.put(`${V1}/assets/${id}/description`, { description })).status, 200);
    await describe(ids.beach, 'Dunes at low tide, 7d trip');
    await describe(ids.camera, 'New lens on the DUNES');
    const indexed = db.prepare("SELECT count(*) FROM assets_words_fts WHERE assets_words_fts MATCH 'description : \"dunes\"'").pluck().get();
    assert.equal(indexed, 2, 'both descriptions are in the index');
    for (const c of Object.values(inBothVariants(alice))) {
      assert.deepEqual(keysOf(await byDescription(c, 'dunes')), ['beach', 'camera'], `${c.variant}: dunes`);
      assert.deepEqual(keysOf(await byDescription(c, 'tide')), ['beach'], `${c.variant}: tide`);
      assert.deepEqual(keysOf(await byDescription(c, '7d')), ['beach'], `${c.variant}: a short word`);
    }
    await describe(ids.camera, 'Harbour lights');
    await describe(ids.beach, ''); // a blank description clears it
    for (const c of Object.values(inBothVariants(alice))) {
      assert.deepEqual(await byDescription(c, 'dunes'), [], `${c.variant}: the old descriptions are gone`);
      assert.deepEqual(keysOf(await byDescription(c, 'lights')), ['camera'], `${c.variant}: the new description`);
    }
    await describe(ids.beach, 'Dunes again');
  });

  test('a rename and a deletion for good keep the index current', async () => {
    const { db } = srv.container;
    // What a move in the repository does to the row (the asset keeps its id, its name changes).
    db.prepare('UPDATE assets SET original_filename = ? WHERE asset_id = ?').run('harbour_walk.jpg', ids.beachToo);
    db.prepare('UPDATE assets SET original_filename = ? WHERE asset_id = ?').run('IMG_0001_beach.jpg', ids.plain);
    for (const c of Object.values(inBothVariants(alice))) {
      assert.deepEqual(keysOf(await byName(c, 'beach')), ['beach', 'plain'], `${c.variant}: after the renames`);
      assert.deepEqual(keysOf(await byName(c, 'harbour')), ['beachToo'], `${c.variant}: the new name`);
      assert.deepEqual(await byName(c, 'comber'), [], `${c.variant}: the old name is gone`);
    }
    // Deleted for good: the file leaves the repository first, as a deletion does. Left on disk, the folder watcher
    // (whose late event for it the job queue's idle does not wait for) would catalogue it again as a new asset.
    const repo = srv.container.repositories.primary()!;
    fs.rmSync(path.join(repo.path, 'trips', 'Sunny_BEACH_day.jpg'));
    db.prepare('DELETE FROM assets WHERE asset_id = ?').run(ids.beach);
    const left = db.prepare("SELECT rowid FROM assets_words_fts WHERE assets_words_fts MATCH 'original_filename : \"beach\"'").pluck().all();
    const plainRow = db.prepare('SELECT rowid FROM assets WHERE asset_id = ?').pluck().get(ids.plain);
    assert.deepEqual(left, [plainRow], 'the deleted row left the index');
    const dunes = db.prepare("SELECT count(*) FROM assets_words_fts WHERE assets_words_fts MATCH 'description : \"dunes\"'").pluck().get();
    assert.equal(dunes, 0, "the deleted row's description left the index");
    db.prepare("INSERT INTO assets_words_fts (assets_words_fts) VALUES ('integrity-check')").run();
    for (const c of Object.values(inBothVariants(alice))) assert.deepEqual(keysOf(await byName(c, 'beach')), ['plain'], `${c.variant}: after the deletion`);
  });

  test('the ocr channel ranks within the filter: strict among what may be shown, the quoted line, both variants', async () => {
    // Two signs read (written through the real store: its triggers fill the trigram index): the one with both
    // words lies outside the folder the search is filtered to, the one with one word inside it.
    const { db } = srv.container;
    const aliceId = db.prepare("SELECT user_id FROM users WHERE username = 'alice'").pluck().get() as number;
    const signs = await ingest(srv, aliceId, {
      both: [{ bytes: await solidJpeg([240, 240, 240]) }, 'elsewhere/sign-a.jpg'],
      one: [{ bytes: await solidJpeg([230, 230, 230]) }, 'station/sign-b.jpg'],
    });
    const store = new OcrStore(db);
    const box: Quad = [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 20 }, { x: 0, y: 20 }];
    const read = (lines: string[]) => ({ width: 320, height: 240, lines: lines.map((text) => ({ text, box, confidence: 0.9 })) });
    assert.ok(store.replace(signs.both, read(['Platform 4', 'EXIT to the left']), { modelId: 'test', source: 'medium', processingMs: 1 }));
    assert.ok(store.replace(signs.one, read(['Welcome', 'Way out: EXIT B']), { modelId: 'test', source: 'medium', processingMs: 1 }));
    for (const c of Object.values(inBothVariants(alice))) {
      const all = await byChannel(c, 'exit platform', 'ocr', true);
      assert.deepEqual(all.map((i) => i.media_item.primary_asset.asset_id), [signs.both], `${c.variant}: unfiltered, the strict match alone`);
      const r = await c.post(`${V1}/assets/search`, { query: 'exit platform', filter: { folder_path: 'station' } });
      assert.equal(r.status, 200, r.text);
      const found = (data(c, r).result_items as Item[]).filter((i) => i.match.sources.includes('ocr'));
      assert.deepEqual(found.map((i) => i.media_item.primary_asset.asset_id), [signs.one], `${c.variant}: in the folder, the relaxed match`);
      assert.ok(found[0]!.match.why.includes("text 'Way out: EXIT B'"), JSON.stringify(found[0]!.match.why));
    }
  });

  test('the channels read the index, not every file name or description of the owner', () => {
    // The statements filename.ts and text.ts prepare for words of three characters or more.
    for (const column of ['original_filename', 'description']) {
      const plan = srv.container.db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT a.rowid FROM assets_words_fts f CROSS JOIN assets a ON a.rowid = f.rowid
            WHERE assets_words_fts MATCH '${column} : "beach"' AND a.is_deleted = 0`,
        )
        .all() as { detail: string }[];
      const details = plan.map((p) => p.detail).join(' | ');
      assert.match(details, /VIRTUAL TABLE INDEX/, details);
      assert.doesNotMatch(details, /SCAN a\b/, details);
    }
  });
});

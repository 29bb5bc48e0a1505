/**
 * Each OCR line carries its asset's rowid (migration 0023_ocr_line_asset_rowid.sql): the `ocr` channel of
 * searchAssets checks the matching lines against the allowed bitmap by it, without reading the assets' rows.
 * Shown: the rowid is right for every line when the OCR store writes a photo's text, when it reads the photo
 * again (reindex), when another writer inserts lines without it (the trigger), and the lines go with the photo
 * deleted for good; the channel's answers follow (real server, photos ingested for real, searchAssets over
 * HTTP in both variants). And the migration fills the rowid of lines read before it, on a real catalog file.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, tempDataDir, type TestServer } from '../helpers/server.ts';
import { V1, data, registerAdmin } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { OcrStore, type Quad } from '../../../server/src/features/ocr/index.ts';
import { openDatabase } from '../../../server/src/platform/db/connection.ts';
import { loadMigrations, migrate } from '../../../server/src/platform/db/migrate.ts';
import { ingest, solidJpeg } from './helpers.ts';

interface Item {
  media_item: { primary_asset: { asset_id: string } };
  match: { why: string[]; sources: string[] };
}

const box: Quad = [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 20 }, { x: 0, y: 20 }];
const read = (lines: string[]) => ({ width: 320, height: 240, lines: lines.map((text) => ({ text, box, confidence: 0.9 })) });
const run = { modelId: 'test', source: 'medium' as const, processingMs: 1 };

describe('the asset rowid on OCR lines', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let ids: Record<'sign' | 'door' | 'menu', string>;

  /** The ids the ocr channel found for `query` (in fused order) and the why of each, asked in variant `c`. */
  async function byText(c: Client, query: string, body: Record<string, unknown> = {}): Promise<{ id: string; why: string[] }[]> {
    const r = await c.post(`${V1}/assets/search`, { query, ...body });
    assert.equal(r.status, 200, r.text);
    const answer = data(c, r);
    const source = (answer.top_results_meta.sources as { type: string; error: string | null }[]).find((s) => s.type === 'ocr');
    assert.ok(source, `${c.variant} ${query}: the ocr channel ran`);
    assert.equal(source.error, null);
    return (answer.result_items as Item[]).filter((i) => i.match.sources.includes('ocr')).map((i) => ({ id: i.media_item.primary_asset.asset_id, why: i.match.why }));
  }
  const idsOf = async (c: Client, query: string, body?: Record<string, unknown>) => (await byText(c, query, body)).map((h) => h.id).sort();
  /** Lines whose asset_rowid is not their asset's rowid (or is missing). */
  const wrongRowids = () =>
    srv.container.db.prepare('SELECT count(*) FROM ocr_lines l LEFT JOIN assets a ON a.asset_id = l.asset_id WHERE l.asset_rowid IS NOT a.rowid').pluck().get();
  const linesOf = (id: string) => srv.container.db.prepare('SELECT count(*) FROM ocr_lines WHERE asset_id = ?').pluck().get(id);

  before(async () => {
    srv = await startServer();
    alice = new Client(srv.url);
    await registerAdmin(alice);
    const aliceId = srv.container.db.prepare("SELECT user_id FROM users WHERE username = 'alice'").pluck().get() as number;
    ids = await ingest(srv, aliceId, {
      sign: [{ bytes: await solidJpeg([240, 240, 240]) }, 'signs/station.jpg'],
      door: [{ bytes: await solidJpeg([120, 60, 30]) }, 'signs/door.jpg'],
      menu: [{ bytes: await solidJpeg([30, 120, 60]) }, 'food/menu.jpg'],
    });
  });
  after(async () => {
    await srv?.stop();
  });

  test('written with the lines, right again after a reindex, and what the channel finds follows, in both variants', async () => {
    const store = new OcrStore(srv.container.db);
    assert.ok(store.replace(ids.sign, read(['Platform 4', 'EXIT to the left']), run));
    assert.ok(store.replace(ids.door, read(['Way out: EXIT B']), run));
    assert.equal(wrongRowids(), 0, 'every line carries its asset rowid');
    for (const c of Object.values(inBothVariants(alice))) {
      assert.deepEqual(await idsOf(c, 'exit'), [ids.sign, ids.door].sort(), `${c.variant}: exit`);
      const strict = await byText(c, 'exit platform');
      assert.deepEqual(strict.map((h) => h.id), [ids.sign], `${c.variant}: the strict match`);
      assert.ok(strict[0]!.why.includes("text 'Platform 4'"), JSON.stringify(strict[0]!.why));
    }

    // Read again: the old lines go, the new ones carry the rowid.
    assert.ok(store.replace(ids.sign, read(['Entrance only']), run));
    assert.equal(linesOf(ids.sign), 1);
    assert.equal(wrongRowids(), 0, 'after the reindex');
    for (const c of Object.values(inBothVariants(alice))) {
      assert.deepEqual(await idsOf(c, 'exit'), [ids.door], `${c.variant}: exit after the reindex`);
      assert.deepEqual(await idsOf(c, 'entrance'), [ids.sign], `${c.variant}: the new text`);
    }
  });

  test('a line written without the rowid gets it from the trigger', async () => {
    // As the hybrid-search bench writes its catalog: straight into SQLite, without the column.
    const { db } = srv.container;
    db.prepare("INSERT INTO ocr_results (asset_id, model_id, source, image_width, image_height, processing_time_ms, created_at, updated_at) VALUES (?, 'other', 'medium', 320, 240, 1, 0, 0)").run(ids.menu);
    db.prepare("INSERT INTO ocr_lines (asset_id, line_no, text, box, confidence, model_id) VALUES (?, 0, 'Soup of the day', '[[0,0],[1,0],[1,1],[0,1]]', 0.9, 'other')").run(ids.menu);
    assert.equal(wrongRowids(), 0);
    for (const c of Object.values(inBothVariants(alice))) assert.deepEqual(await idsOf(c, 'soup'), [ids.menu], `${c.variant}: soup`);
  });

  test('the Trash and a deletion for good: the bitmap decides, and the lines go with the photo, in both variants', async () => {
    assert.equal((await alice.req('DELETE', `${V1}/assets/${ids.door}`)).status, 200);
    for (const c of Object.values(inBothVariants(alice))) {
      assert.deepEqual(await idsOf(c, 'exit'), [], `${c.variant}: a trashed photo is not in the library's answer`);
      assert.deepEqual(await idsOf(c, 'exit', { filter: { is_deleted: true } }), [ids.door], `${c.variant}: searched in the Trash, it is`);
    }
    const r = await alice.post(`${V1}/assets/trash/delete`, { asset_ids: [ids.door] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(data(alice, r).deleted, [ids.door]);
    assert.equal(linesOf(ids.door), 0, 'its lines are gone');
    assert.equal(wrongRowids(), 0);
    for (const c of Object.values(inBothVariants(alice))) assert.deepEqual(await idsOf(c, 'exit', { filter: { is_deleted: true } }), [], `${c.variant}: gone for good`);
  });
});

test('the migration gives the lines read before it their asset rowid', () => {
  const db = openDatabase(path.join(tempDataDir(), 'catalog.sqlite3'));
  try {
    migrate(db, { migrations: loadMigrations().filter((m) => m.version < 23) });
    const now = Date.now();
    const userId = Number(db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES ('ann', 'Ann', 'x', 'admin', ?, ?)").run(now, now).lastInsertRowid);
    db.prepare("INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES ('r1', 'Photos', '/photos', 'regular', ?, ?)").run(now, now);
    const insertAsset = db.prepare(
      `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, width, height,
         taken_time, capture_offset_minutes, upload_time, liked, rating, is_deleted, specific_metadata, state, status, created_at, updated_at)
       VALUES (?, ?, 'r1', ?, 'PHOTO', ?, 'image/jpeg', 1000, 40, 30, ?, 0, ?, 0, 0, 0, NULL, 'ready', '[]', ?, ?)`,
    );
    const line = db.prepare("INSERT INTO ocr_lines (asset_id, line_no, text, box, confidence, model_id) VALUES (?, ?, ?, '[[0,0],[1,0],[1,1],[0,1]]', 0.9, 'm')");
    const assets = ['0190a0a0-0000-7000-8000-000000000001', '0190a0a0-0000-7000-8000-000000000002', '0190a0a0-0000-7000-8000-000000000003'];
    assets.forEach((id, i) => insertAsset.run(id, userId, `p${i}.jpg`, `p${i}.jpg`, now, now, now, now));
    // Lines of the last two only, written in the other order: the rowid comes from the asset, not the line.
    line.run(assets[2], 0, 'EXIT');
    line.run(assets[2], 1, 'Platform 2');
    line.run(assets[1], 0, 'TOTAL 12.50');

    assert.deepEqual(migrate(db, { migrations: loadMigrations().filter((m) => m.version <= 23) }).applied, ['0023_ocr_line_asset_rowid']);
    const rows = db.prepare('SELECT l.asset_rowid AS got, a.rowid AS want FROM ocr_lines l JOIN assets a USING (asset_id) ORDER BY l.line_id').all() as { got: number; want: number }[];
    assert.equal(rows.length, 3);
    for (const r of rows) assert.equal(r.got, r.want);
    assert.notEqual(rows[0]!.got, rows[2]!.got);
  } finally {
    db.close();
  }
});

/**
 * Upload receipts follow the asset's changes (features/uploads/receipt-follower.ts): only uploads writes or reads
 * `upload_receipts`; nothing under features/assets names the table. A scan over the source.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startServer, Client } from '../helpers/server.ts';
import { registerAdmin } from '../helpers/api.ts';
import { CORPUS, U, postMultipart } from '../uploads/helpers.ts';
import { until } from '../crash/child.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const ASSETS = path.join(ROOT, 'server/src/features/assets');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|sql)$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

test('nothing under features/assets writes or reads upload_receipts', () => {
  const files = sources(ASSETS);
  assert.ok(files.length > 30, `the scan found the feature's files (${files.length})`);
  const naming = files.filter((f) => /upload_receipts|setReceipt/.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(ROOT, f));
  assert.deepEqual(naming, [], 'receipts are the uploads feature’s: assets emits changes and uploads follows them');
});

test('the receipt follower is subscribed to every change a receipt follows', () => {
  const follower = fs.readFileSync(path.join(ROOT, 'server/src/features/uploads/receipt-follower.ts'), 'utf8');
  for (const change of ['asset.ingested', 'asset.moved', 'asset.ready', 'asset.waiting', 'asset.failed', 'asset.requeued']) {
    assert.match(follower, new RegExp(`changes\\.on\\('${change.replace('.', '\\.')}'`), change);
  }
});

test('an upload’s receipt row follows its asset to completed, before anyone reads it', { timeout: 120_000 }, async () => {
  const srv = await startServer();
  try {
    const alice = new Client(srv.url);
    await registerAdmin(alice);
    const r = await postMultipart(srv.url, `${U}/files`, alice.token, [{ name: 'file', filename: 'follow.jpg', data: fs.readFileSync(path.join(CORPUS, 'gps/DSCN0025.jpg')) }]);
    assert.equal(r.status, 200, r.text);
    const assetId = (JSON.parse(r.text) as { asset_id: string }).asset_id;
    const db = srv.container.db;
    await until('the asset processed', () => db.prepare('SELECT state FROM assets WHERE asset_id = ?').pluck().get(assetId) === 'ready');
    // Read the row, not the API: the API's read also reconciles a receipt with its asset (receipts.ts).
    const receipt = db.prepare('SELECT status, problem FROM upload_receipts WHERE asset_id = ?').get(assetId) as { status: string; problem: string | null };
    assert.deepEqual(receipt, { status: 'completed', problem: null }, 'asset.ready settled the receipt in its transaction');
  } finally {
    await srv.stop({ removeData: true });
  }
});

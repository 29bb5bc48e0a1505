/**
 * Upload receipts follow the asset's changes (features/uploads/receipt-follower.ts): only uploads writes or reads
 * `upload_receipts`; nothing under features/assets names the table. A scan over the source.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

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

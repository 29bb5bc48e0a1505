/**
 * A walk of one upload, from the route to the catalog row to the first thumbnail, on the real objects: the upload
 * reaches the catalog through the one door, the content lookup runs once (before the door, 3 times), and the assets
 * feature never calls into uploads (before, the catalog write called the uploads' commit intents twice; now the
 * receipt follows the catalog write's change through the change bus).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startServer, Client } from '../helpers/server.ts';
import { V1, registerAdmin } from '../helpers/api.ts';
import { CORPUS, U, postMultipart } from '../uploads/helpers.ts';
import { until } from '../crash/child.ts';

/** Wraps every method of `obj` (own and prototype) to record the stack of each call. */
function spyOn(obj: object, calls: { name: string; stack: string }[], label: string): void {
  const names = new Set<string>();
  for (let p = obj; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) for (const n of Object.getOwnPropertyNames(p)) names.add(n);
  for (const n of names) {
    const v = (obj as Record<string, unknown>)[n];
    if (n === 'constructor' || typeof v !== 'function') continue;
    (obj as Record<string, unknown>)[n] = function (this: unknown, ...args: unknown[]) {
      calls.push({ name: `${label}.${n}`, stack: new Error().stack ?? '' });
      return (v as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
}

test('one upload: route → door → catalog row → first thumbnail, with one content lookup and no call from assets into uploads', { timeout: 180_000 }, async () => {
  const srv = await startServer();
  try {
    const alice = new Client(srv.url);
    await registerAdmin(alice);
    const { door, uploads } = srv.container;
    let byContent = 0;
    const lookUp = door.writer.byContent.bind(door.writer);
    door.writer.byContent = (...a) => (byContent++, lookUp(...a));
    let admissions = 0;
    const admit = door.admit.bind(door);
    door.admit = (a) => (admissions++, admit(a));
    const uploadsCalls: { name: string; stack: string }[] = [];
    spyOn(uploads, uploadsCalls, 'uploads');
    spyOn(uploads.store, uploadsCalls, 'uploads.store');

    const file = path.join(CORPUS, 'gps/DSCN0025.jpg');
    const r = await postMultipart(srv.url, `${U}/files`, alice.token, [{ name: 'file', filename: 'walk.jpg', data: fs.readFileSync(file) }]);
    assert.equal(r.status, 200, r.text);
    const assetId = (JSON.parse(r.text) as { asset_id: string }).asset_id;
    assert.equal(admissions, 1, 'the upload went through the door once');
    assert.equal(byContent, 1, 'one content lookup decides own copy, restore, link source and move');

    // Calls into uploads made by the assets feature: any uploads call whose stack passes through features/assets
    // without the change bus between (a subscriber is the composition root's wiring, not a call the writer makes).
    const fromAssets = uploadsCalls.filter((c) => c.stack.includes('/features/assets/') && !c.stack.includes('/change-bus/'));
    assert.deepEqual(fromAssets.map((c) => c.name), [], 'no call from assets into uploads');
    const followed = uploadsCalls.filter((c) => c.stack.includes('/change-bus/'));
    assert.deepEqual(followed.map((c) => c.name), ['uploads.settleReceipt', 'uploads.store.settleReceipt'], 'the receipt followed the catalog write’s change (uploads writes it through its own store)');

    const thumb = await until('the first thumbnail', async () => {
      const t = await fetch(`${srv.url}${V1}/assets/${assetId}/thumbnail?size=small`, { headers: { authorization: `Bearer ${alice.token}` } });
      return t.status === 200 ? t : null;
    });
    assert.match(thumb.headers.get('content-type') ?? '', /^image\//);
    assert.equal(byContent, 1, 'the pipeline looked no content up');
    const row = srv.container.db.prepare('SELECT owner_id, original_filename, storage_path FROM assets WHERE asset_id = ?').get(assetId) as { original_filename: string; storage_path: string };
    assert.equal(row.original_filename, 'walk.jpg');
    assert.match(row.storage_path, /^uploads\/\d{4}\/\d{2}\/walk\.jpg$/);
  } finally {
    await srv.stop({ removeData: true });
  }
});

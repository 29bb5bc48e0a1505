/**
 * SemanticStore on the real catalog (a started server's SQLite file, sqlite-vec loaded): the blob layout
 * sqlite-vec reads, replace/vectorsOf per model, bad frames refused, and when listeners are told: at once outside
 * a transaction; inside one only after it committed, and never when it rolled back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { SemanticStore, type VectorChange } from '../../../server/src/features/semantic/index.ts';

const unitVector = (seed: number) => {
  const v = Float32Array.from({ length: 512 }, (_, i) => Math.sin(seed * 31 + i * 0.7));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

describe('SemanticStore', () => {
  let srv: TestServer;
  let store: SemanticStore;
  const changes: VectorChange[] = [];
  const assetIds: string[] = [];

  before(async () => {
    srv = await startServer();
    const db = srv.container.db;
    // Two asset rows of a real owner and repository (the store keys vectors on the catalog's assets).
    db.prepare(`INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES ('ann', 'Ann', 'x', 'admin', 0, 0)`).run();
    const owner = db.prepare('SELECT user_id FROM users').pluck().get();
    const repo = srv.container.repositories.primary()!.repository_id;
    for (const id of ['0190a000-0000-7000-8000-000000000001', '0190a000-0000-7000-8000-000000000002']) {
      db.prepare(
        `INSERT INTO assets (asset_id, owner_id, repository_id, type, storage_path, original_filename, mime_type, file_size, hash, state, upload_time, created_at, updated_at)
         VALUES (?, ?, ?, 'PHOTO', ?, ?, 'image/jpeg', 1, ?, 'ready', 0, 0, 0)`,
      ).run(id, owner, repo, `${id}.jpg`, `${id}.jpg`, id);
      assetIds.push(id);
    }
    store = new SemanticStore(db);
    store.onChange((c) => changes.push(c));
  });
  after(() => srv?.stop({ removeData: true }));

  test('vectors are stored as float32 LE that sqlite-vec reads; per model; earliest frame first', () => {
    const [a] = assetIds;
    assert.equal(store.replace(a!, 'm1', [{ frameTsMs: 900, vector: unitVector(2) }, { frameTsMs: 100, vector: unitVector(1) }]), true);
    assert.equal(store.replace(a!, 'm2', [{ frameTsMs: -1, vector: unitVector(3) }]), true);
    assert.deepEqual(store.vectorsOf(a!, 'm1').map((f) => f.frameTsMs), [100, 900]);
    assert.deepEqual(store.vectorsOf(a!, 'm1')[1]!.vector, unitVector(2));
    assert.equal(store.vectorsOf(a!, 'm2').length, 1, 'another model\'s vectors are its own');
    const q = unitVector(1);
    const d = srv.container.db
      .prepare(`SELECT vec_distance_cosine(embedding, vec_f32(?)) FROM semantic_vectors WHERE asset_id = ? AND model_id = 'm1' AND frame_ts_ms = 100`)
      .pluck()
      .get(Buffer.from(q.buffer), a) as number;
    assert.ok(Math.abs(d) < 1e-5, `cosine distance to itself: ${d}`);
    // Replacing again leaves only the new set.
    assert.equal(store.replace(a!, 'm1', [{ frameTsMs: 500, vector: unitVector(4) }]), true);
    assert.deepEqual(store.vectorsOf(a!, 'm1').map((f) => f.frameTsMs), [500]);
    assert.deepEqual(store.counts('m1'), { assets: 1, vectors: 1 });
  });

  test('bad frames are refused before anything is written', () => {
    const [a] = assetIds;
    const bad = [
      [{ frameTsMs: -1, vector: new Float32Array(511) }],
      [{ frameTsMs: -2, vector: unitVector(1) }],
      [{ frameTsMs: 1.5, vector: unitVector(1) }],
      [{ frameTsMs: 5, vector: unitVector(1) }, { frameTsMs: 5, vector: unitVector(2) }],
      [{ frameTsMs: 5, vector: unitVector(1).fill(Number.NaN, 0, 1) }],
    ];
    for (const frames of bad) assert.throws(() => store.replace(a!, 'm1', frames), RangeError, JSON.stringify(frames.map((f) => f.frameTsMs)));
    assert.deepEqual(store.vectorsOf(a!, 'm1').map((f) => f.frameTsMs), [500], 'unchanged');
  });

  test('outside a transaction listeners are told at once, with the asset\'s rowid', () => {
    changes.length = 0;
    const [, b] = assetIds;
    store.replace(b!, 'm1', [{ frameTsMs: -1, vector: unitVector(5) }]);
    const rowid = srv.container.db.prepare('SELECT rowid FROM assets WHERE asset_id = ?').pluck().get(b);
    assert.equal(changes.length, 1, 'synchronously');
    assert.deepEqual({ ...changes[0], frames: undefined }, { kind: 'replace', assetId: b, assetRowid: rowid, modelId: 'm1', frames: undefined });
    // A second store on the same catalog sees the same changes.
    const other: VectorChange[] = [];
    const off = new SemanticStore(srv.container.db).onChange((c) => other.push(c));
    store.replace(b!, 'm1', []);
    assert.deepEqual(other.map((c) => c.kind), ['replace']);
    off();
  });

  test('inside a transaction: told after it commits; a rolled-back reset is never told and wipes nothing', async () => {
    const db = srv.container.db;
    const rows = () => db.prepare('SELECT count(*) FROM semantic_vectors').pluck().get() as number;
    const before = rows();
    assert.ok(before > 0);
    changes.length = 0;
    assert.throws(() =>
      db.transaction(() => {
        store.reset();
        throw new Error('the rebuild failed');
      })(),
    );
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(changes, [], 'nothing told');
    assert.equal(rows(), before, 'nothing wiped');

    db.transaction(() => store.reset())();
    assert.deepEqual(changes, [], 'not inside the transaction\'s call');
    await Promise.resolve();
    assert.deepEqual(changes, [{ kind: 'reset' }]);
    assert.equal(rows(), 0);
  });

  test('an asset row deleted (any way) is told as remove once committed; a rolled-back delete is not', async () => {
    const db = srv.container.db;
    const [a, b] = assetIds;
    store.replace(a!, 'm1', [{ frameTsMs: -1, vector: unitVector(6) }]);
    changes.length = 0;
    assert.throws(() =>
      db.transaction(() => {
        db.prepare('DELETE FROM assets WHERE asset_id = ?').run(a);
        throw new Error('undo');
      })(),
    );
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(changes, []);
    assert.equal(store.vectorsOf(a!, 'm1').length, 1);
    const rowids = assetIds.map((id) => db.prepare('SELECT rowid FROM assets WHERE asset_id = ?').pluck().get(id));
    db.prepare('DELETE FROM assets').run();
    await Promise.resolve();
    assert.deepEqual(changes, [
      { kind: 'remove', assetId: a, assetRowid: rowids[0] },
      { kind: 'remove', assetId: b, assetRowid: rowids[1] },
    ]);
    assert.equal(store.vectorsOf(a!, 'm1').length, 0, 'cascaded away');
  });
});

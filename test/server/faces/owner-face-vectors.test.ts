/**
 * The owner's face embeddings kept between incremental passes (owner-face-vectors.store.ts): after the first photo a pass
 * reads only the faces added since; what it reads is exactly the catalog's faces, after faces were removed (a photo
 * indexed again), and after a write that was rolled back, whose face ids AUTOINCREMENT hands out again to other
 * faces; and the people the passes find are those a rebuild finds.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FACE_MODEL_ID, FacesStore } from '../../../server/src/features/faces/index.ts';
import { faceOwner } from './face-owner.ts';

let seed = 77;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
const unit = (v: Float32Array) => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};
/** A face of identity `base` (cosine about 0.9 to it), or a stranger without one. */
const faceOf = (base: Float32Array | null) => unit(base ? base.map((x) => x + 0.02 * gauss()) : Float32Array.from({ length: 128 }, gauss));
const face = (embedding: Float32Array, i: number) => ({ box: { x: 0.2 * i, y: 0.1, w: 0.15, h: 0.15 }, landmarks: [] as [number, number][], score: 0.9, embedding });

describe('face clustering: the owner face vectors kept between passes', { timeout: 120_000 }, () => {
  const { h, owner, photo, factory, repo } = faceOwner('v');
  /** What the catalog holds: the owner's face ids and embeddings in id order. */
  const catalogFaces = () =>
    (h.db.prepare('SELECT face_id, embedding FROM faces WHERE owner_id = ? ORDER BY face_id').all(owner) as { face_id: number; embedding: Buffer }[]).map((r) => ({
      id: r.face_id,
      embedding: Array.from(new Float32Array(r.embedding.buffer.slice(r.embedding.byteOffset, r.embedding.byteOffset + r.embedding.byteLength))),
    }));
  /** What a pass reads now. */
  const passReads = (store: FacesStore) => {
    const { ids, matrix } = store.vectors.read(owner);
    store.vectors.settle(false);
    return Array.from(ids, (id, i) => ({ id, embedding: Array.from(matrix.row(i)) }));
  };
  const people = () => JSON.stringify(h.db.prepare('SELECT person_id FROM faces WHERE owner_id = ? ORDER BY face_id').pluck().all(owner));

  test('after the first photo a pass reads only the faces added since, and sees exactly the catalog’s faces', async () => {
    const store = new FacesStore(h.db);
    const identities = Array.from({ length: 6 }, () => faceOf(null));
    const assets: string[] = [];
    for (let p = 0; p < 30; p++) {
      const asset = photo();
      assets.push(asset);
      const faces = [faceOf(identities[p % 6]!), ...(p % 3 === 0 ? [faceOf(null)] : [])].map(face);
      assert.ok(store.replace(asset, { width: 1000, height: 800, faces }, FACE_MODEL_ID));
    }
    assert.equal(store.vectors.reads.full, 1, 'one pass read every face');
    assert.equal(store.vectors.reads.added, 29, 'the others read the faces added since');

    // A photo indexed again: its faces are removed and new ones inserted; the next pass reads everything again.
    assert.ok(store.replace(assets[4]!, { width: 1000, height: 800, faces: [face(faceOf(identities[1]!), 0)] }, FACE_MODEL_ID));
    assert.equal(store.vectors.reads.full, 2, 'a face removed since: every face read again');
    assert.deepEqual(passReads(store), catalogFaces());

    // A write rolled back after its pass: its ids are handed out again, to other faces.
    const rolledBack = photo();
    assert.throws(() =>
      h.db.transaction(() => {
        store.replace(rolledBack, { width: 1000, height: 800, faces: [face(faceOf(identities[2]!), 0), face(faceOf(identities[3]!), 1)] }, FACE_MODEL_ID);
        throw new Error('rolled back');
      })(),
    );
    const next = photo();
    assert.ok(store.replace(next, { width: 1000, height: 800, faces: [face(faceOf(null), 0), face(faceOf(null), 1)] }, FACE_MODEL_ID));
    assert.deepEqual(passReads(store), catalogFaces(), 'the faces now under the rolled-back ids are read as they are');

    // A new store (a start): the indexer's read-ahead, outside the write, in slices; the pass then reads only what
    // was added since.
    const started = new FacesStore(h.db);
    const more = photo();
    await started.warmFor(more);
    assert.deepEqual(started.vectors.reads, { full: 0, added: 0 });
    assert.ok(started.replace(more, { width: 1000, height: 800, faces: [face(faceOf(identities[5]!), 0)] }, FACE_MODEL_ID));
    assert.deepEqual(started.vectors.reads, { full: 0, added: 1 }, 'no pass read every face');
    assert.deepEqual(passReads(started), catalogFaces());

    // The people found photo by photo are those a rebuild finds.
    const found = people();
    await store.rebuildOwner(owner);
    assert.equal(people(), found);
  });

  test('the read-ahead reads an owner of thousands of faces a slice at a time, and gives what the catalog holds', async () => {
    const other = Number(h.db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES ('w', 'w', 'x', 'user', 0, 0)").run().lastInsertRowid);
    const asset = factory.asset({ owner_id: other, repository_id: repo, original_filename: 'many.jpg', storage_path: 'w/many.jpg' });
    const insert = h.db.prepare(
      "INSERT INTO faces (asset_id, owner_id, face_no, model_id, x, y, w, h, landmarks, score, embedding) VALUES (?, ?, ?, 'm', 0, 0, 0.1, 0.1, '[]', 0.9, ?)",
    );
    h.db.transaction(() => {
      for (let i = 0; i < 5000; i++) {
        const e = faceOf(null);
        insert.run(asset, other, i, Buffer.from(e.buffer, e.byteOffset, e.byteLength));
      }
    })();
    const store = new FacesStore(h.db);
    // Other work gets its turn while it reads (2,048 faces a slice): this callback runs before the read-ahead ends.
    let turned = false;
    const warming = store.warmFor(asset);
    setImmediate(() => (turned = true));
    await warming;
    const { ids, matrix } = store.vectors.read(other);
    store.vectors.settle(false);
    assert.deepEqual(store.vectors.reads, { full: 0, added: 1 });
    const rows = h.db.prepare('SELECT face_id, embedding FROM faces WHERE owner_id = ? ORDER BY face_id').all(other) as { face_id: number; embedding: Buffer }[];
    assert.deepEqual(Array.from(ids), rows.map((r) => r.face_id));
    rows.forEach((r, i) => assert.deepEqual(Array.from(matrix.row(i)), Array.from(new Float32Array(r.embedding.buffer.slice(r.embedding.byteOffset, r.embedding.byteOffset + r.embedding.byteLength)))));
    assert.ok(turned, 'the event loop turned while it read');
  });
});

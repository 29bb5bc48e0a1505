/**
 * Clustering quality on ../shared/corpus/faces with the real models: every photo's medium thumbnail (made by
 * the server's thumbnail code: what the `face` indexer reads once it exists, face-indexer.ts) read once by the
 * face pipeline (YuNet, alignment, MobileFaceNet on the ML runtime's pool), then
 *  - every face found clustered with the chosen threshold and min size (cluster.ts), and the labelled faces
 *    (the largest face of each photo of one identity, labels.json) scored by BCubed: F1 ≥ 0.95 and no
 *    cluster mixing two identities. Prints the figures.
 *  - the same analyses stored photo by photo through the ingest's own write (FacesStore.replace, what the
 *    `face` indexer calls, with its incremental clustering) into a real catalog in four orders (as listed,
 *    reversed, two seeded shuffles; one member each): the people found as the photos arrived are, face for
 *    face, the people a rebuild of the same faces gives (rebuildOwner), the same in every order, with BCubed
 *    precision and recall 1.00. (Before the incremental pass re-ran the rebuild's rule, three of these
 *    orders gave other groups of the unlabelled faces than a rebuild.)
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateThumbnails } from '../../../server/src/adapters/media/thumbnails.ts';
import { MlRuntime } from '../../../server/src/adapters/ml/index.ts';
import { CLUSTER_PARAMS, FACE_MODEL_ID, FacesStore, analyseFaces, bcubed, clusterFaces, facePoolInfer, type ClusterFace, type FaceAnalysis } from '../../../server/src/features/faces/index.ts';
import { catalogOf } from '../helpers/factories.ts';
import { tempCatalog } from '../jobs/harness.ts';
import { SHARED_MODELS } from '../ml/models.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../../../shared/corpus/faces');

/** A seeded Fisher–Yates shuffle (LCG), so each order is the same on every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = items.slice();
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('face clustering quality on the corpus', { timeout: 600_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-faces-'));
  const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 1 });
  /** Every photo's analysis, read once, and the index of its labelled face (the largest, one identity only). */
  const photos: { name: string; analysis: FaceAnalysis; label: string | null; largest: number }[] = [];
  before(async () => {
    const labels = JSON.parse(fs.readFileSync(path.join(CORPUS, 'labels.json'), 'utf8')) as Record<string, { identities: string[] }>;
    for (const [name, label] of Object.entries(labels)) {
      const medium = path.join(dir, `${name}.medium`);
      await generateThumbnails(path.join(CORPUS, name), { medium });
      const analysis = await analyseFaces(medium, facePoolInfer(ml));
      const found = analysis.faces;
      const largest = found.reduce((best, f, i) => (f.box.w * f.box.h > found[best]!.box.w * found[best]!.box.h ? i : best), 0);
      photos.push({ name, analysis, label: label.identities.length === 1 ? label.identities[0]! : null, largest });
    }
  });
  after(async () => {
    await ml.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test(`BCubed F1 ≥ 0.95 at threshold ${CLUSTER_PARAMS.threshold}, min size ${CLUSTER_PARAMS.minPoints}, no mixed cluster`, () => {
    const faces: ClusterFace[] = [];
    const labelled = new Map<number, string>();
    let id = 0;
    for (const p of photos) {
      p.analysis.faces.forEach((f, i) => {
        faces.push({ id: ++id, score: f.score, embedding: f.embedding });
        if (i === p.largest && p.label && p.analysis.faces.length) labelled.set(id, p.label);
      });
    }
    assert.ok(labelled.size >= 60, `the labelled faces were found: ${labelled.size}`);
    const groups = clusterFaces(faces);
    const q = bcubed([...labelled].map(([fid, label]) => ({ label, cluster: groups.get(fid) ?? null })));
    console.log(
      `faces: ${faces.length} found, ${labelled.size} labelled (${new Set(labelled.values()).size} identities); ` +
        `BCubed precision ${q.precision.toFixed(3)}, recall ${q.recall.toFixed(3)}, F1 ${q.f1.toFixed(3)}; mixed clusters ${q.mixed}`,
    );
    assert.equal(q.mixed, 0, 'no cluster mixes two identities');
    assert.ok(q.f1 >= 0.95, `F1 ${q.f1}`);
  });

  test('people found as photos arrive, in four orders, are the people a rebuild gives (BCubed 1.00)', async () => {
    const cat = tempCatalog();
    try {
      const store = new FacesStore(cat.db);
      const factory = catalogOf(cat.db);
      const repo = factory.repository({ name: 'corpus', path: dir, status: 'offline' });
      const addUser = (name: string) =>
        Number(cat.db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES (?, ?, 'x', 'user', 0, 0)").run(name, name).lastInsertRowid);
      /** One member's people as a partition of "photo#face" keys (comparable across members), sorted. */
      const partition = (owner: number) => {
        const rows = cat.db
          .prepare('SELECT a.original_filename AS name, f.face_no, f.person_id FROM faces f JOIN assets a ON a.asset_id = f.asset_id WHERE f.owner_id = ? AND f.person_id IS NOT NULL')
          .all(owner) as { name: string; face_no: number; person_id: number }[];
        const by = new Map<number, string[]>();
        for (const r of rows) (by.get(r.person_id) ?? by.set(r.person_id, []).get(r.person_id)!).push(`${r.name}#${r.face_no}`);
        return [...by.values()].map((keys) => keys.sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
      };
      const quality = (owner: number) => {
        const personOf = new Map(
          (cat.db.prepare('SELECT a.original_filename AS name, f.face_no, f.person_id FROM faces f JOIN assets a ON a.asset_id = f.asset_id WHERE f.owner_id = ?').all(owner) as { name: string; face_no: number; person_id: number | null }[]).map((r) => [
            `${r.name}#${r.face_no}`,
            r.person_id,
          ]),
        );
        return bcubed(photos.filter((p) => p.label && p.analysis.faces.length).map((p) => ({ label: p.label!, cluster: personOf.get(`${p.name}#${p.largest}`) ?? null })));
      };

      const orders = [photos, photos.slice().reverse(), shuffled(photos, 2), shuffled(photos, 7)];
      assert.notDeepEqual(orders[0]!.map((p) => p.name), orders[1]!.map((p) => p.name), 'the orders differ');
      const results: { order: number; owner: number; incremental: string[][] }[] = [];
      for (const [x, order] of orders.entries()) {
        const owner = addUser(`order${x}`);
        for (const p of order) {
          const asset = factory.asset({ owner_id: owner, repository_id: repo, original_filename: p.name, storage_path: `${owner}/${p.name}` });
          assert.ok(store.replace(asset, p.analysis, FACE_MODEL_ID));
        }
        results.push({ order: x, owner, incremental: partition(owner) });
      }
      for (const r of results) {
        const q = quality(r.owner);
        console.log(`order ${r.order}: ${r.incremental.length} people as the photos arrived; BCubed precision ${q.precision.toFixed(3)}, recall ${q.recall.toFixed(3)}`);
        assert.equal(q.precision, 1, `order ${r.order}: precision`);
        assert.equal(q.recall, 1, `order ${r.order}: recall`);
      }
      // The same faces in every order: the same people.
      for (const r of results.slice(1)) assert.deepEqual(r.incremental, results[0]!.incremental, `order ${r.order} gives the people of order 0`);
      // And a rebuild of them changes nothing.
      for (const r of results) {
        await store.rebuildOwner(r.owner);
        assert.deepEqual(partition(r.owner), r.incremental, `order ${r.order}: the rebuild gives the people found on ingest`);
      }
    } finally {
      cat.cleanup();
    }
  });
});

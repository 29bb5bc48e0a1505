/**
 * Clustering quality on ../shared/corpus/faces with the real models: every photo read by the face pipeline
 * (YuNet, alignment, MobileFaceNet on the ML runtime's pool), every face found clustered with the chosen
 * threshold and min size (cluster.ts), and the labelled faces (the largest face of each photo of one identity,
 * labels.json) scored by BCubed: F1 ≥ 0.95 and no cluster mixing two identities. Prints the figures.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { MlRuntime } from '../../../server/src/adapters/ml/index.ts';
import { CLUSTER_PARAMS, analyseFaces, bcubed, clusterFaces, facePoolInfer, type ClusterFace } from '../../../server/src/features/faces/index.ts';
import { SHARED_MODELS } from '../ml/models.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../../../shared/corpus/faces');

describe('face clustering quality on the corpus', { timeout: 600_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-faces-'));
  const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null, maxWorkers: 1 });
  after(async () => {
    await ml.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test(`BCubed F1 ≥ 0.95 at threshold ${CLUSTER_PARAMS.threshold}, min size ${CLUSTER_PARAMS.minPoints}, no mixed cluster`, async () => {
    const labels = JSON.parse(fs.readFileSync(path.join(CORPUS, 'labels.json'), 'utf8')) as Record<string, { identities: string[] }>;
    const faces: ClusterFace[] = [];
    const labelled = new Map<number, string>();
    let id = 0;
    for (const [name, label] of Object.entries(labels)) {
      fs.copyFileSync(path.join(CORPUS, name), path.join(dir, name));
      const { faces: found } = await analyseFaces(path.join(dir, name), facePoolInfer(ml));
      const largest = found.reduce((best, f, i) => (f.box.w * f.box.h > found[best]!.box.w * found[best]!.box.h ? i : best), 0);
      found.forEach((f, i) => {
        faces.push({ id: ++id, score: f.score, embedding: f.embedding });
        if (i === largest && label.identities.length === 1) labelled.set(id, label.identities[0]!);
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
});

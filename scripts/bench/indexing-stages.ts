/**
 * The stage table of scripts/bench/indexing.ts: the CPU one photo costs, stage by stage, measured alone.
 *
 * First the base pipeline of every file, in a catalog of its own, as the server ingests a batch (IngestService,
 * then its jobs until the queue is idle; the ML tasks are off there, so it queues no index job), its CPU divided
 * by the files. Ingested one photo at a time, waiting for the queue after each (as this pass did before), it
 * measured 177.7 ms a photo against the 95 of bench:ingest: the follow-up work the server does once for a
 * batch (stacks detection, coalesced by its unique key) then ran once per photo, as did each job's claim and
 * queue wake-up. The server does not do that work twice; only the measurement did.
 * Then one pass over the files, single-threaded and one photo at a time: the indexers' own code on the photo: the shared 800-px decode (PhotoPixels), the face pipeline
 * (features/faces/pipeline.ts) and the OCR pipeline (features/ocr/recognise.ts) with their stage timings on the
 * CPU clock (process.cpuUsage), then each store's write. Inference runs on onnxruntime sessions created here
 * with one intra-op thread, and each run's CPU is taken apart, so a stage that includes an inference (the
 * classifier's and recogniser's batches are prepared inside the same lap) is split into preparation and
 * inference. The first photo warms the sessions and the code up and is not counted.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { expandPixels } from '../../server/src/adapters/ml/index.ts';
import { loadConfig } from '../../server/src/config/env.ts';
import { createContainer } from '../../server/src/container.ts';
import { FACE_MODEL_ID, analyseFaces } from '../../server/src/features/faces/index.ts';
import { emptyFaceTimings, type FaceTimings } from '../../server/src/features/faces/pipeline.ts';
import type { FaceInfer } from '../../server/src/features/faces/types.ts';
import { PhotoPixels } from '../../server/src/features/indexing/index.ts';
import { OCR_MODEL_ID, OcrStore, createOcr, emptyTimings, loadCharset, type OcrInfer, type OcrTimings } from '../../server/src/features/ocr/index.ts';
import { loadRgb } from '../../server/src/features/ocr/image-input.ts';
import { createLogger } from '../../server/src/platform/logger.ts';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export async function stagePass(files: string[], modelsDir: string, modelFiles: Record<string, string>): Promise<void> {
  const sessions = new Map<string, import('onnxruntime-node').InferenceSession>();
  for (const [id, file] of Object.entries(modelFiles)) {
    sessions.set(id, await ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 3 }));
  }
  const inferCpu: Record<string, number> = {};
  const inferRuns: Record<string, number> = {};
  const run = async (id: string, input: { data: Float32Array; dims: number[] }) => {
    const s = sessions.get(id)!;
    const t = cpuMs();
    const out = await s.run({ [s.inputNames[0]!]: new ort.Tensor('float32', input.data, input.dims) });
    inferCpu[id] = (inferCpu[id] ?? 0) + cpuMs() - t;
    inferRuns[id] = (inferRuns[id] ?? 0) + 1;
    return { out, outputNames: s.outputNames };
  };
  const faceIds = { detector: 'yunet-n', embedding: 'mobilefacenet' } as const;
  const faceInfer: FaceInfer = async (model, input) => {
    // The detector's input comes as its pixels: the tensor made here, as the pool's worker makes it.
    const { out } = await run(faceIds[model], 'pixels' in input ? { data: expandPixels({ type: 'float32', ...input }), dims: input.dims } : input);
    return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, { data: t.data as Float32Array, dims: [...t.dims] }]));
  };
  const ocrIds = { det: 'ppocrv4-det', cls: 'ppocr-cls', rec: 'ppocrv4-rec' } as const;
  const ocrInfer: OcrInfer = async (model, input) => {
    const { out, outputNames } = await run(ocrIds[model], input);
    const t = out[outputNames[0]!]!;
    return { data: t.data as Float32Array, dims: [...t.dims] };
  };
  const engine = createOcr({ infer: ocrInfer, charset: loadCharset(path.join(modelsDir, 'ocr-ppocrv4/ppocr_keys_v1.txt')) });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-stages-'));
  const c = createContainer(
    loadConfig({ HEARTH_DATA_DIR: dataDir, HEARTH_PORT: '0', HEARTH_LOG_LEVEL: 'silent', HEARTH_MODELS_DIR: modelsDir, HEARTH_ML_DEFAULT_ON: 'false' }),
    createLogger('silent'),
  );
  const repo = c.repositories.primary()!;
  const owner = c.auth.users.insert({ username: 'bench', display_name: 'Bench', password_hash: 'x', role: 'admin', now: Date.now() }).user_id;
  const ocrStore = new OcrStore(c.db);
  const keepAlive = setInterval(() => {}, 1000);

  // The base pipeline: the first file alone (module loading, the places data: what a process pays once), then
  // the rest as one batch, as the server ingests them.
  const relPaths = files.map((f, i) => `${i}-${path.basename(f)}`);
  relPaths.forEach((r, i) => fs.copyFileSync(files[i]!, path.join(repo.path, r)));
  const ingestOne = (relPath: string) => c.ingest.indexFile({ repositoryId: repo.repository_id, relPath, ownerId: owner, source: 'scan' });
  await ingestOne(relPaths[0]!);
  await c.jobRunner.whenIdle();
  const t0 = cpuMs();
  for (const relPath of relPaths.slice(1)) await ingestOne(relPath);
  await c.jobRunner.whenIdle();
  const ingest = cpuMs() - t0;
  const ingested = Math.max(1, files.length - 1);
  const assetOf = c.db.prepare('SELECT asset_id FROM assets WHERE storage_path = ?').pluck();

  let faceWrites = 0;
  let ocrWrites = 0;
  const faceT: FaceTimings = emptyFaceTimings();
  const ocrT: OcrTimings = emptyTimings();
  let counted = 0;
  for (let i = 0; i < files.length; i++) {
    const warm = i === 0;
    const file = path.join(repo.path, relPaths[i]!);
    const assetId = assetOf.get(relPaths[i]!) as string | undefined;
    if (!assetId) continue;
    let t: number;
    if (warm) for (const k of Object.keys(inferCpu)) inferCpu[k] = 0;
    const before = { ...inferCpu };
    const fT = warm ? emptyFaceTimings() : faceT;
    const oT = warm ? emptyTimings() : ocrT;
    // A new cache per photo: the decode is counted once, in the face pipeline's lap, and the OCR detector reads it.
    const pixels = new PhotoPixels();
    try {
      t = cpuMs();
      const img = await pixels.get(file);
      fT.decode += cpuMs() - t;
      const analysis = await analyseFaces(img, faceInfer, { timings: fT, clock: cpuMs });
      t = cpuMs();
      c.faces.replace(assetId, analysis, FACE_MODEL_ID);
      const fw = cpuMs() - t;
      const result = await engine.recognise({ detection: img, crops: () => loadRgb(file) }, { timings: oT, clock: cpuMs });
      t = cpuMs();
      ocrStore.replace(assetId, result, { modelId: OCR_MODEL_ID, source: 'original', processingMs: 0 });
      const ow = cpuMs() - t;
      if (!warm) {
        faceWrites += fw;
        ocrWrites += ow;
        counted++;
      }
    } catch (e) {
      console.log(`  (${path.basename(files[i]!)} not indexed: ${e instanceof Error ? e.message : String(e)})`);
      if (!warm) for (const k of Object.keys(inferCpu)) inferCpu[k] = before[k] ?? 0;
    }
    if (warm) for (const k of Object.keys(inferCpu)) inferCpu[k] = inferRuns[k] = 0;
    pixels.clear();
  }
  clearInterval(keepAlive);
  await c.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  for (const s of sessions.values()) await s.release();
  if (!counted) return;

  const per = (ms: number) => (ms / counted).toFixed(1).padStart(8);
  const perIngested = (ingest / ingested) * counted; // in the table's unit: per photo, times the photos counted
  const inf = (id: string) => inferCpu[id] ?? 0;
  const rows: [string, number][] = [
    ['base pipeline (hash, EXIF, 400 px, pHash, catalog; a batch, per file)', perIngested],
    ['decode (800 px, shared by faces and text detection)', faceT.decode],
    ['faces: detector pre-processing', faceT.detPrepare],
    ['faces: YuNet inference', faceT.det],
    ['faces: detector post-processing', faceT.detPostprocess],
    ['faces: alignment (embedding pre-processing)', faceT.embedPrepare],
    ['faces: MobileFaceNet inference', faceT.embed],
    ['faces: embedding post-processing', faceT.embedPostprocess],
    ['faces: catalog write (with incremental clustering)', faceWrites],
    ['text: detector pre-processing', ocrT.detPrepare],
    ['text: PP-OCRv4 det inference', ocrT.det],
    ['text: detector post-processing (DB boxes)', ocrT.dbPostprocess],
    ['text: decode of the crops source (≤ 4096 px, only for lines under 48 px at 800)', ocrT.decode],
    ['text: crops', ocrT.crop],
    ['text: classifier pre-processing', ocrT.cls - inf('ppocr-cls')],
    ['text: classifier inference', inf('ppocr-cls')],
    ['text: recogniser pre-processing', ocrT.rec - inf('ppocrv4-rec')],
    ['text: recogniser inference', inf('ppocrv4-rec')],
    ['text: recogniser post-processing (CTC)', ocrT.ctcDecode],
    ['text: catalog write', ocrWrites],
  ];
  const total = rows.reduce((s, [, v]) => s + v, 0);
  const inference = inf('yunet-n') + inf('mobilefacenet') + inf('ppocrv4-det') + inf('ppocr-cls') + inf('ppocrv4-rec');
  console.log(`CPU per file, stage by stage (${counted} photos, one at a time, this thread, 1 intra-op thread; ms):`);
  for (const [name, v] of rows) console.log(`  ${per(v)}  ${name}`);
  console.log(`  ${per(total)}  total (inference ${per(inference).trim()}, decode ${per(faceT.decode + ocrT.decode).trim()}, the rest ${per(total - inference - faceT.decode - ocrT.decode).trim()})`);
  console.log(`  runs per photo: ${Object.entries(inferRuns).map(([id, n]) => `${id} ${(n / counted).toFixed(2)}`).join(', ')}`);
}

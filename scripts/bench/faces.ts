/**
 * `npm run bench:faces`: the face pipeline and clustering (features/faces).
 *
 *   detection   YuNet on every photo of ../shared/corpus/faces (decoded to 800 px first, as the medium
 *               thumbnail is; decoding not timed): images/s
 *   embedding   alignment + MobileFaceNet (crop and mirrored crop) per face found: faces/s
 *   quality     BCubed precision / recall / F1 of the clustering on the labelled faces (cluster.ts)
 *   clustering  clusterFacesIndexed (a full rebuild's clustering: HNSW neighbour lists re-checked exactly) on
 *               --faces N synthetic clustered 128-d unit vectors (identities of 50 faces, same-person cosine ≈ 0.7
 *               like the corpus; default 20000, the issue's size is 100000): seconds, memory (RSS peak above the
 *               start, the vectors included), the longest event-loop stall during it; the all-pairs reference
 *               (cluster-reference.ts) timed on the first --sample faces (default 4000) of the same set and
 *               extrapolated by (N / sample)², and the ratio; the HNSW neighbour lists' recall vs the exact scan on
 *               500 faces; and whether the indexed groups equal the all-pairs groups on the sample.
 *   incremental the ingest's write (FacesStore.replace with its incremental pass: the new faces' components
 *               clustered again by the rebuild's rule) in a real catalog holding the same --faces faces (placed by a
 *               rebuild first), for --photos new photos of --group faces (default 1; faces of known identities and
 *               strangers, alternately),
 *               each made ready first as the face indexer does (FacesStore.warmFor: the components the face will
 *               join searched outside the write, a slice per turn): milliseconds per photo of the write (median,
 *               worst; it blocks the event loop that long) and of the making ready (median, worst, and its longest
 *               turn of the event loop), the components' sizes, how many passes were left to a rebuild (over
 *               INCREMENTAL_BUDGET), and whether a rebuild afterwards gives the same people.
 *
 *   rebuild     the people rebuild in a running server (faces-rebuild.ts): the same --faces faces, two per photo,
 *               in a real data folder; the owner's people rebuilt twice by the rebuild job's handler (first: no face
 *               placed; second: all placed) while a person browses over HTTP: each rebuild's time, the longest
 *               event-loop stall during it (target ≤ 50 ms), and browsing p95 idle and during it, side by side.
 *
 * Options: --faces N, --sample N, --photos N (default 40), --workers N (inference threads, default 1: the
 * figures are per thread), --threads N (index threads, default 1, as the server builds it), --rebuild-only
 * (only the last part: no models needed), --incremental-only (only the incremental part: no models needed).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { MlRuntime } from '../../server/src/adapters/ml/index.ts';
import { bcubed, clusterFaces, clusterFacesAllPairs, clusterFacesIndexed, CLUSTER_PARAMS, facePoolInfer, type ClusterFace } from '../../server/src/features/faces/index.ts';
import { ExactNeighbours, FaceMatrix, HNSW_PARAMS, HnswNeighbours } from '../../server/src/features/faces/cluster-neighbours.ts';
import { detectFaces } from '../../server/src/features/faces/detect.ts';
import { embedFace } from '../../server/src/features/faces/embed.ts';
import { loadRgb } from '../../server/src/features/faces/image-input.ts';
import { FACE_PARAMS } from '../../server/src/features/faces/params.ts';
import { FacesStore } from '../../server/src/features/faces/faces.store.ts';
import { ComponentScan } from '../../server/src/features/faces/component-search.ts';
import { openDatabase } from '../../server/src/platform/db/connection.ts';
import { benchPeopleRebuild, syntheticFaces } from './faces-rebuild.ts';
import { migrate } from '../../server/src/platform/db/migrate.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
/** The incremental part counts components up to this many faces. */
const SIZE_CAP = 2000;
if (process.argv.includes('--rebuild-only')) {
  await benchPeopleRebuild(syntheticFaces(arg('faces', 20_000)));
  process.exit(0);
}
if (process.argv.includes('--incremental-only')) {
  await benchIncremental(syntheticFaces(arg('faces', 20_000)));
  process.exit(0);
}
const root = path.resolve(import.meta.dirname, '../..');
const corpus = path.resolve(root, '../shared/corpus/faces');
const ml = new MlRuntime({ modelsDir: process.env.HEARTH_MODELS_DIR ?? path.resolve(root, '../shared/models'), shippedModelsDir: path.join(root, 'models'), dataDir: null, maxWorkers: arg('workers', 1) });
const infer = facePoolInfer(ml);

const labels = JSON.parse(fs.readFileSync(path.join(corpus, 'labels.json'), 'utf8')) as Record<string, { identities: string[] }>;
const images = await Promise.all(Object.keys(labels).map(async (name) => ({ name, img: await loadRgb(path.join(corpus, name), FACE_PARAMS.source.maxSide) })));
// Warm-up: sessions loaded, first runs out of the figures.
for (const { img } of images.slice(0, 2)) for (const f of await detectFaces(img, infer)) await embedFace(img, f.landmarks, infer);

let t = performance.now();
const detected = [];
for (const { name, img } of images) detected.push({ name, img, faces: await detectFaces(img, infer) });
const detectS = (performance.now() - t) / 1000;
t = performance.now();
const faces: ClusterFace[] = [];
const labelled = new Map<number, string>();
for (const d of detected) {
  const largest = d.faces.reduce((b, f, i) => (f.w * f.h > d.faces[b]!.w * d.faces[b]!.h ? i : b), 0);
  for (const [i, f] of d.faces.entries()) {
    faces.push({ id: faces.length + 1, score: f.score, embedding: await embedFace(d.img, f.landmarks, infer) });
    if (i === largest && labels[d.name]!.identities.length === 1) labelled.set(faces.length, labels[d.name]!.identities[0]!);
  }
}
const embedS = (performance.now() - t) / 1000;
const corpusGroups = clusterFaces(faces);
const q = bcubed([...labelled].map(([id, label]) => ({ label, cluster: corpusGroups.get(id) ?? null })));
console.log(`detection: ${images.length} images in ${detectS.toFixed(2)} s = ${(images.length / detectS).toFixed(1)} images/s (YuNet-n, ≤ 640 px)`);
console.log(`embedding: ${faces.length} faces in ${embedS.toFixed(2)} s = ${(faces.length / embedS).toFixed(1)} faces/s (align + MobileFaceNet ×2)`);
console.log(`quality (threshold ${CLUSTER_PARAMS.threshold}, min size ${CLUSTER_PARAMS.minPoints}, ${labelled.size} labelled faces): BCubed precision ${q.precision.toFixed(3)}, recall ${q.recall.toFixed(3)}, F1 ${q.f1.toFixed(3)}, mixed clusters ${q.mixed}`);
await ml.close();

const n = arg('faces', 20_000);
const sampleN = Math.min(n, arg('sample', 4_000));
const threads = arg('threads', 1);
const set = syntheticFaces(n);
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const sample = set.slice(0, sampleN);
t = performance.now();
const reference = clusterFacesAllPairs(sample);
const sampleS = (performance.now() - t) / 1000;
const sampleIndexed = await clusterFacesIndexed(sample, { neighbours: 'hnsw', threads });
// Group numbers of new groups depend on creation order: compare partitions (each group named by its first face).
const canonical = (groups: Map<number, number>) => {
  const first = new Map<number, number>();
  for (const [id, g] of groups) first.set(g, Math.min(first.get(g) ?? id, id));
  return (id: number) => (groups.has(id) ? first.get(groups.get(id)!)! : 0);
};
const [refOf, idxOf] = [canonical(reference), canonical(sampleIndexed)];
const differing = sample.filter((f) => refOf(f.id) !== idxOf(f.id)).length;

global.gc?.();
const rssStart = process.memoryUsage().rss;
let rssPeak = rssStart, stall = 0, last = performance.now();
const probe = setInterval(() => {
  const now = performance.now();
  stall = Math.max(stall, now - last);
  last = now;
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
}, 5);
t = performance.now();
const groups = await clusterFacesIndexed(set, { threads });
const indexedS = (performance.now() - t) / 1000;
clearInterval(probe);
const extrapolated = sampleS * (n / sampleN) ** 2;
console.log(`clustering: ${n} synthetic faces (${n / 50} identities) in ${indexedS.toFixed(1)} s (HNSW ${HNSW_PARAMS.quantization} M${HNSW_PARAMS.connectivity} ef_add ${HNSW_PARAMS.expansionAdd} ef_search ${HNSW_PARAMS.expansionSearch} + exact re-check, ${threads} index threads), ${new Set(groups.values()).size} groups, ${groups.size} faces clustered`);
console.log(`  memory: RSS peak +${mb(rssPeak - rssStart)} over the start; longest event-loop stall ${stall.toFixed(0)} ms`);
console.log(`  all pairs: ${sampleN} faces in ${sampleS.toFixed(1)} s → ${n} extrapolated (×(${n}/${sampleN})²) ${extrapolated.toFixed(0)} s = ${(extrapolated / 60).toFixed(1)} min; indexed is ${(extrapolated / indexedS).toFixed(0)}× faster`);
console.log(`  on the ${sampleN}-face sample, the indexed groups ${differing ? `DIFFER from the all-pairs groups for ${differing} faces` : 'equal the all-pairs groups'} (${new Set(reference.values()).size} groups)`);

// Recall of the index's neighbour lists (k 16, what the clustering reads first) vs the exact scan.
const m = new FaceMatrix(set.map((f) => f.embedding));
const exact = new ExactNeighbours(m, CLUSTER_PARAMS.threshold);
const hnsw = await HnswNeighbours.build(m, CLUSTER_PARAMS.threshold, { threads, pause: async () => {} });
const rows = Array.from({ length: 500 }, (_, i) => Math.floor((i * n) / 500));
const lists = hnsw.queryMany(rows, 16);
let found = 0, wanted = 0;
rows.forEach((i, x) => {
  const have = new Set(lists[x]!.ids);
  const want = exact.query(i, 16).ids;
  wanted += want.length;
  for (const j of want) if (have.has(j)) found++;
});
console.log(`  HNSW neighbour-list recall vs brute force (500 faces, k 16, cosine ≥ ${CLUSTER_PARAMS.threshold}): ${(found / wanted).toFixed(4)} (${found}/${wanted})`);

await benchIncremental(set);
await benchPeopleRebuild(set);

/** The incremental pass at this size: a catalog with the same faces, a rebuild to place them, then new photos. */
async function benchIncremental(set: ClusterFace[]): Promise<void> {
  const n = set.length;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-faces-'));
  const db = openDatabase(path.join(dir, 'catalog.sqlite3'));
  try {
    migrate(db);
    const at = Date.now();
    db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES ('bench', 'Bench', 'x', 'user', ?, ?)").run(at, at);
    const owner = db.prepare('SELECT user_id FROM users').pluck().get() as number;
    db.prepare("INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES ('r', 'r', ?, 'primary', ?, ?)").run(dir, at, at);
    const insAsset = db.prepare(
      `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, state, upload_time, created_at, updated_at)
       VALUES (?, ?, 'r', ?, 'PHOTO', ?, 'image/jpeg', 1000, 'ready', ?, ?, ?)`,
    );
    const asset = (id: string) => (insAsset.run(id, owner, id, `${id}.jpg`, at, at, at), id);
    const face = (embedding: Float32Array, score: number, i = 0) => ({ box: { x: (i % 50) / 50, y: Math.floor(i / 50) / 2000, w: 0.01, h: 0.01 }, landmarks: [] as [number, number][], score, embedding });
    let deferred = 0;
    // Every face of the set on one photo, left to the rebuild (one pass over all of them is far over the budget).
    const store = new FacesStore(db, { onDeferred: () => deferred++ });
    store.replace(asset('library'), { width: 4000, height: 3000, faces: set.map((f, i) => face(f.embedding, f.score, i)) }, 'bench');
    deferred = 0;
    await store.rebuildOwner(owner);
    const photos = arg('photos', 40);
    const times: number[] = [];
    const sizes: number[] = [];
    const bare: number[] = [];
    let longest = 0;
    const warmMs: number[] = [];
    let warmTurn = 0;
    // Garbage-collection pauses of this process while the making ready runs, so that a long turn can be told apart
    // from a pause (the bench's own set of faces lives in the same heap).
    let warmGc = 0;
    let inWarm = false;
    const gcWatch = new PerformanceObserver((list) => {
      if (inWarm) for (const e of list.getEntries()) warmGc = Math.max(warmGc, e.duration);
    });
    gcWatch.observe({ entryTypes: ['gc'] });
    let seed = 7;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
    const group = arg('group', 1);
    for (let p = 0; p < photos; p++) {
      // Alternately a face of a known identity (one of the set's faces + noise) and a stranger: even photos start
      // with a known one, odd ones with a stranger.
      const faces = Array.from({ length: group }, (_, g) => {
        const k = p * group + g;
        const base = set[(k * 997) % set.length]!.embedding;
        const v = (p + g) % 2 ? Float32Array.from({ length: 128 }, gauss) : base.map((x) => x + 0.03 * gauss());
        const norm = Math.hypot(...v);
        return v.map((x) => x / norm);
      });
      const id = asset(`new-${p}`);
      // As the face indexer does: the owner's faces and the new face's components made ready outside the write, a
      // slice per turn (the longest turn it took is measured), then the write.
      let tick = performance.now();
      const drift = setInterval(() => {
        const now = performance.now();
        warmTurn = Math.max(warmTurn, now - tick - 1);
        tick = now;
      }, 1);
      const tw = performance.now();
      inWarm = true;
      await store.warmFor(id, faces);
      warmMs.push(performance.now() - tw);
      clearInterval(drift);
      // The observer is told of the pauses after they end: the entries of the last turns arrive on a later one.
      await new Promise((resolve) => setTimeout(resolve, 5));
      inWarm = false;
      const t0 = performance.now();
      store.replace(id, { width: 4000, height: 3000, faces: faces.map((e, g) => face(e, 0.9, g)) }, 'bench');
      const ms = performance.now() - t0;
      times.push(ms);
      // The same write of a photo without faces: what the catalog costs without the clustering.
      const empty = asset(`empty-${p}`);
      const t1 = performance.now();
      store.replace(empty, { width: 4000, height: 3000, faces: [] }, 'bench');
      bare.push(performance.now() - t1);
      longest = Math.max(longest, ms);
      // Its component's size, counted up to SIZE_CAP faces (a giant chained component would take minutes to count), over
      // the store's own kept copy: a copy of every face made here, each photo (100,000 buffers at 100,000 faces), left
      // the server's loop a major collection of the bench's garbage to run, which the next photo's turns measured.
      const kept = store.vectors.read(owner);
      store.vectors.settle(true);
      const faceId = db.prepare('SELECT min(face_id) FROM faces WHERE asset_id = ?').pluck().get(id) as number;
      const row = kept.ids.indexOf(faceId);
      const fm = kept.matrix;
      const others = Int32Array.from({ length: fm.size - 1 }, (_, x) => (x < row ? x : x + 1));
      const scan = new ComponentScan(fm, [row], others, CLUSTER_PARAMS.threshold, Infinity, kept.components, { maxRows: SIZE_CAP, large: () => false });
      scan.run();
      sizes.push(scan.tooLarge ? Infinity : scan.reached().length);
    }
    gcWatch.disconnect();
    const partition = () => JSON.stringify(store.ownerFaces(owner).map((f) => f.person_id));
    const before = partition();
    await store.rebuildOwner(owner);
    const same = partition() === before;
    times.sort((a, b) => a - b);
    sizes.sort((a, b) => a - b);
    const size = (x: number) => (x === Infinity ? `>${SIZE_CAP}` : String(x));
    bare.sort((a, b) => a - b);
    console.log(
      `incremental: ${photos} new photos of ${group === 1 ? 'one face' : `${group} faces`} into ${n} faces: ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms per photo (median), worst ${longest.toFixed(0)} ms (a photo without faces: ${bare[Math.floor(bare.length / 2)]!.toFixed(0)} ms); ` +
        `components ${size(sizes[0]!)}–${size(sizes[sizes.length - 1]!)} faces (median ${size(sizes[Math.floor(sizes.length / 2)]!)}); left to a rebuild: ${deferred}; ` +
        `a rebuild afterwards ${same ? 'changes nothing' : deferred ? 'places the faces left to it (the people differ by those)' : 'CHANGES the people'}`,
    );
    warmMs.sort((a, b) => a - b);
    console.log(
      `  made ready before each write (FacesStore.warmFor: the new face's components searched, outside the write): ${warmMs[Math.floor(warmMs.length / 2)]!.toFixed(0)} ms per photo (median), ` +
        `worst ${warmMs[warmMs.length - 1]!.toFixed(0)} ms, in turns of the event loop of at most ${warmTurn.toFixed(0)} ms (longest garbage-collection pause meanwhile ${warmGc.toFixed(0)} ms)`,
    );
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}


/**
 * Hybrid searchAssets end to end over HTTP at 100k assets, every channel active (issue 13 point 7;
 * target p95 ≤ 50 ms). `runHybridBench()` is the section scripts/bench/search.ts runs; alone:
 *
 *   npx tsx scripts/bench/search/hybrid-http.ts [--count 100000] [--queries 200]
 *
 * 1. Starts the real server as a child process (as the e2e tests and bench:timeline do) on a temporary
 *    data folder, with the stand-in CLIP (HEARTH_CLIP_STANDIN=1, made into a temporary models folder by
 *    its script), so the text tower runs on the inference pool for every query as CLIP's would.
 * 2. Writes the catalog straight into SQLite (test/e2e/timeline-catalog.ts: 100k photos over 15 years),
 *    then, for the same photos:
 *    - a CLIP vector each, clustered as real libraries are: the stand-in's own image vectors of its
 *      palette colours are the centres, each photo a mix of one to three of them plus noise, unit length;
 *    - OCR text for one photo in ten (one to three lines from a vocabulary of signs and receipts);
 *    - tags for one in five (a vocabulary of 40), a description for one in twenty, file names with
 *      words for one in twenty, and twelve albums of 500 photos with named trips.
 * 3. Asks searchAssets `--queries` times with queries that hit every channel (a colour word for the
 *    embedding, a word found in OCR text, file names, tags, album names), after one warm-up per query
 *    (the first search computes the caller's browse list, which the server keeps). Prints p50 / p95 /
 *    max over HTTP, and each channel's median and p95 `duration_ms` from `top_results_meta.sources`.
 *
 * Reading the figures: a 2-core machine shared with other work; the embedding channel on this branch
 * is the exact scan of semantic_vectors (features/search/channels/nearest-vectors.ts); the vector index
 * (features/semantic/vector-index) takes its place at merge.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { ClipEncoder, MlRuntime, modelEntry } from '../../../server/src/adapters/ml/index.ts';
import { STANDIN_PALETTE, makeClipStandin } from '../../models/make-clip-standin.ts';
import { startChildServer, stopChildServer } from '../../../test/e2e/child-server.ts';
import { insertTimeline, makeTimeline } from '../../../test/e2e/timeline-catalog.ts';
import { seededRandom } from '../../../test/shared/seeded-random.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SHARED_MODELS = process.env.HEARTH_SHARED_MODELS ?? path.resolve(ROOT, '../shared/models');
const ADMIN = { username: 'bench', password: 'hybrid search bench password' };
export const HYBRID_TARGET_P95_MS = 50;

const OCR_WORDS = ['EXIT', 'STOP', 'receipt', 'TOTAL', 'coffee', 'museum', 'platform', 'parking', 'bakery', 'pharmacy', 'station', 'invoice', 'menu', 'garden', 'beach'];
const TAGS = ['beach', 'sunset', 'mountain', 'city', 'family', 'dog', 'cat', 'birthday', 'garden', 'snow', 'forest', 'lake', 'food', 'car', 'bike', 'museum', 'concert', 'wedding', 'boat', 'bridge',
  'flowers', 'party', 'school', 'holiday', 'church', 'castle', 'river', 'market', 'train', 'airport', 'hiking', 'camping', 'picnic', 'zoo', 'harbour', 'desert', 'island', 'festival', 'sport', 'night'];
const ALBUMS = ['Summer in Spain', 'Alps hiking', 'Paris weekend', 'Grandma birthday', 'Beach holiday', 'Christmas', 'Rome trip', 'Garden', 'Lake camping', 'New York', 'School play', 'Road trip'];
/** Queries with a colour (embedding), OCR words, and words of file names, tags and albums. */
const QUERIES = ['red beach', 'blue sunset', 'green garden', 'receipt total', 'exit', 'yellow museum', 'white snow mountain', 'orange coffee', 'summer spain', 'station platform', 'purple flowers', 'dog park'];

export interface HybridFigures {
  count: number;
  queries: number;
  p50: number;
  p95: number;
  max: number;
  channels: Record<string, { p50: number; p95: number; candidates: number }>;
  met: boolean;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const f1 = (x: number) => x.toFixed(1);

async function post(url: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** The stand-in's image vectors of its palette colours: the cluster centres. */
async function colourCentres(modelsDir: string): Promise<Float32Array[]> {
  const ml = new MlRuntime({ modelsDir, dataDir: null, maxWorkers: 1, clipStandin: true });
  try {
    const clip = new ClipEncoder(ml, true);
    const images = await Promise.all(
      STANDIN_PALETTE.map((p) => sharp({ create: { width: 64, height: 64, channels: 3, background: { r: p.rgb[0] * 255, g: p.rgb[1] * 255, b: p.rgb[2] * 255 } } }).png().toBuffer()),
    );
    return await clip.embedImages(images);
  } finally {
    await ml.close();
  }
}

/** Vectors, OCR text, tags, descriptions, file names and albums for the photos `ids`, in one transaction. */
function enrich(dataDir: string, ownerId: number, ids: string[], centres: Float32Array[], modelId: string): void {
  const rand = seededRandom(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const db = new Database(path.join(dataDir, 'catalog.sqlite3'));
  try {
    db.pragma('busy_timeout = 30000');
    const now = Date.now();
    const vec = db.prepare('INSERT INTO semantic_vectors (asset_id, model_id, frame_ts_ms, embedding, created_at) VALUES (?, ?, -1, ?, ?)');
    const ocrRun = db.prepare("INSERT INTO ocr_results (asset_id, model_id, source, image_width, image_height, processing_time_ms, created_at, updated_at) VALUES (?, 'bench', 'medium', 800, 600, 1, ?, ?)");
    const ocrLine = db.prepare("INSERT INTO ocr_lines (asset_id, line_no, text, box, confidence, model_id) VALUES (?, ?, ?, '[[0,0],[1,0],[1,1],[0,1]]', 0.95, 'bench')");
    const tag = db.prepare('INSERT INTO asset_tags (asset_id, tag_id, source, confidence, created_at) VALUES (?, ?, ?, 1, ?)');
    const describe = db.prepare('UPDATE assets SET description = ? WHERE asset_id = ?');
    const rename = db.prepare('UPDATE assets SET original_filename = ? WHERE asset_id = ?');
    const v = new Float32Array(512);
    db.transaction(() => {
      const tagIds = TAGS.map((t) => Number(db.prepare('INSERT INTO tags (tag_name, created_at) VALUES (?, ?)').run(t, now).lastInsertRowid));
      const albumIds = ALBUMS.map((name) => Number(db.prepare('INSERT INTO albums (owner_id, album_name, created_at, updated_at) VALUES (?, ?, ?, ?)').run(ownerId, name, now, now).lastInsertRowid));
      ids.forEach((id, i) => {
        v.fill(0);
        const mix = 1 + Math.floor(rand() * 3);
        for (let m = 0; m < mix; m++) {
          const c = pick(centres);
          const w = rand();
          for (let d = 0; d < 512; d++) v[d]! += w * c[d]!;
        }
        let n = 0;
        for (let d = 0; d < 512; d++) {
          v[d]! += (rand() - 0.5) * 0.02;
          n += v[d]! * v[d]!;
        }
        n = Math.sqrt(n);
        for (let d = 0; d < 512; d++) v[d] = v[d]! / n;
        vec.run(id, modelId, Buffer.from(v.buffer.slice(0)), now);
        if (i % 10 === 0) {
          ocrRun.run(id, now, now);
          const lines = 1 + Math.floor(rand() * 3);
          for (let l = 0; l < lines; l++) ocrLine.run(id, l, `${pick(OCR_WORDS)} ${pick(OCR_WORDS)} ${Math.floor(rand() * 100)}`);
        }
        if (i % 5 === 1) tag.run(id, pick(tagIds), rand() < 0.7 ? 'manual' : 'zeroshot', now);
        if (i % 20 === 2) describe.run(`${pick(TAGS)} with the ${pick(TAGS)}`, id);
        if (i % 20 === 3) rename.run(`${pick(TAGS)}_${pick(TAGS)}_${i}.jpg`, id);
        if (i < ALBUMS.length * 500) db.prepare('INSERT INTO album_assets (album_id, asset_id, position, added_at, added_by) VALUES (?, ?, ?, ?, ?)').run(albumIds[Math.floor(i / 500)]!, id, i % 500, now, ownerId);
      });
    })();
  } finally {
    db.close();
  }
}

export async function runHybridBench(opts: { count?: number; queries?: number } = {}): Promise<HybridFigures> {
  const count = opts.count ?? 100_000;
  const queries = opts.queries ?? 200;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-hybrid-'));
  const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-models-'));
  const vocab = modelEntry('clip-tokenizer')!.files[0]!.path;
  fs.mkdirSync(path.dirname(path.join(modelsDir, vocab)), { recursive: true });
  fs.symlinkSync(path.join(SHARED_MODELS, vocab), path.join(modelsDir, vocab));
  await makeClipStandin(modelsDir, path.join(SHARED_MODELS, vocab));
  const centres = await colourCentres(modelsDir);
  // The child server inherits these (test/e2e/child-server.ts spreads process.env).
  const saved = { dir: process.env.HEARTH_MODELS_DIR, standin: process.env.HEARTH_CLIP_STANDIN };
  process.env.HEARTH_MODELS_DIR = modelsDir;
  process.env.HEARTH_CLIP_STANDIN = '1';
  let child: Awaited<ReturnType<typeof startChildServer>>['child'] | undefined;
  try {
    // Named here too: the child server turns the ML tasks on only when its env names a models folder.
    const env = { HEARTH_MODELS_DIR: modelsDir, HEARTH_CLIP_STANDIN: '1' };
    let started = await startChildServer(dataDir, 'A', env);
    child = started.child;
    const session = await post(`${started.url}/api/v1/auth/register`, { ...ADMIN, display_name: 'Bench' });
    const token = session.token as string;
    const userId = (session.user as { user_id: number }).user_id;
    let t = performance.now();
    const ids = insertTimeline(dataDir, userId, makeTimeline(count));
    enrich(dataDir, userId, ids, centres, 'clip-standin-vision');
    console.log(`Hybrid search bench: ${count.toLocaleString('en-US')} photos with vectors, OCR text, tags, descriptions, albums written in ${f1((performance.now() - t) / 1000)} s; ${os.cpus().length} CPUs, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    // The catalog was written beside the server, not through it: restart it, so that its in-memory vector index is
    // built from semantic_vectors at start as on a household's server (it follows only the changes it makes itself).
    await stopChildServer(child);
    child = undefined;
    t = performance.now();
    started = await startChildServer(dataDir, 'A', env);
    child = started.child;
    const base = started.url;

    const search = (query: string) => post(`${base}/api/v1/assets/search`, { query, pagination: { limit: 50 }, top_results_limit: 20 }, token);
    // Warm-up: the browse list computed once, the text tower loaded, and the vector index built in the background
    // (until then the exact scan answers the embedding channel: slow); waits until the index answers.
    for (let round = 0; ; round++) {
      let slowest = 0;
      for (const q of QUERIES) {
        const r = await search(q);
        const e = (r.top_results_meta.sources as { type: string; duration_ms: number }[]).find((x) => x.type === 'embedding');
        slowest = Math.max(slowest, e?.duration_ms ?? 0);
      }
      if (slowest < 100 || round === 20) break;
    }
    console.log(`server restarted and warmed up (vector index built from SQLite, browse list, text tower): ${f1(performance.now() - t)} ms`);

    const times: number[] = [];
    const channels = new Map<string, { ms: number[]; candidates: number[] }>();
    for (let i = 0; i < queries; i++) {
      const q = QUERIES[i % QUERIES.length]!;
      const t0 = performance.now();
      const r = await search(q);
      times.push(performance.now() - t0);
      if (r.top_results_meta.degraded) throw new Error(`degraded answer: ${JSON.stringify(r.top_results_meta.sources)}`);
      for (const s of r.top_results_meta.sources as { type: string; duration_ms: number; candidate_count: number }[]) {
        const c = channels.get(s.type) ?? { ms: [], candidates: [] };
        c.ms.push(s.duration_ms);
        c.candidates.push(s.candidate_count);
        channels.set(s.type, c);
      }
    }
    const figures: HybridFigures = {
      count,
      queries,
      p50: pct(times, 50),
      p95: pct(times, 95),
      max: Math.max(...times),
      channels: Object.fromEntries([...channels].map(([k, c]) => [k, { p50: pct(c.ms, 50), p95: pct(c.ms, 95), candidates: pct(c.candidates, 50) }])),
      met: pct(times, 95) <= HYBRID_TARGET_P95_MS,
    };
    console.log(`searchAssets over HTTP, ${queries} queries: p50 ${f1(figures.p50)} ms, p95 ${f1(figures.p95)} ms, max ${f1(figures.max)} ms — target p95 ≤ ${HYBRID_TARGET_P95_MS} ms ${figures.met ? 'met' : 'NOT met'}`);
    for (const [k, c] of Object.entries(figures.channels)) console.log(`  ${k.padEnd(9)} p50 ${f1(c.p50)} ms, p95 ${f1(c.p95)} ms, median candidates ${c.candidates}`);
    return figures;
  } finally {
    if (child) await stopChildServer(child);
    process.env.HEARTH_MODELS_DIR = saved.dir;
    process.env.HEARTH_CLIP_STANDIN = saved.standin;
    if (saved.dir === undefined) delete process.env.HEARTH_MODELS_DIR;
    if (saved.standin === undefined) delete process.env.HEARTH_CLIP_STANDIN;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(modelsDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  runHybridBench({ count: arg('count'), queries: arg('queries') }).catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}

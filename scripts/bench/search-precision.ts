/**
 * `npm run bench:search-precision`: how often what searchAssets lists first is what was asked for
 * (issue 24: "dog on a beach" listed 30 photos because "on" and "a" matched inside words).
 *
 * 1. Starts the real server in this process on a temporary data folder, with the verified OCR models of
 *    ../shared/models, and CLIP as `--clip` says: `none` (default: no image model, the household's case
 *    in the issue) or `standin` (the stand-in CLIP of the tests, colour only). It prints which.
 * 2. Uploads the corpus folders of scripts/bench/search/precision-queries.json over HTTP (uploadAsset), as a
 *    household's phone would, and waits until every indexer (OCR, places, vectors) is done.
 * 3. Asks searchAssets each labelled query over HTTP and prints, per query, precision@10 (of the first
 *    min(10, listed) `result_items`, the share that are right answers; a query with no right answer scores
 *    1 when nothing is listed, else 0), recall@10, how many were listed, the "best results" and whether the
 *    answer said it matched well; then the means, overall and per kind (name, place, sign, date, phrase).
 *
 *   npm run bench:search-precision [-- --clip none|standin] [--json out.json] [--baseline old.json]
 *
 * `--json` writes the per-query figures; `--baseline` compares with such a file (e.g. the same bench run on
 * a checkout of an older commit: the script only reads fields every version answers) and prints the change.
 * The ground truth is in the JSON file, read from the corpus's MANIFEST.md and labels.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, startServer } from '../../test/server/helpers/server.ts';
import { V1, data, registerAdmin } from '../../test/server/helpers/api.ts';
import { searchModelsDir } from '../../test/server/search/helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CORPUS = process.env.HEARTH_CORPUS ?? path.resolve(ROOT, '../shared/corpus');

interface LabelledQuery {
  q: string;
  kind: string;
  relevant?: string[];
  /** Right answers: files whose datetime_original starts with this ("2008", "2008:10"). */
  taken?: string;
}
interface QueryFile {
  folders: string[];
  labelled_limit: number;
  queries: LabelledQuery[];
}
export interface QueryFigure {
  q: string;
  kind: string;
  p10: number;
  r10: number;
  listed: number;
  best: number;
  matched_well: boolean | null;
  reading: string | null;
}

const { values } = parseArgs({ options: { clip: { type: 'string', default: 'none' }, json: { type: 'string' }, baseline: { type: 'string' } } });
if (values.clip !== 'none' && values.clip !== 'standin') throw new Error('--clip is none or standin');

const spec = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'search/precision-queries.json'), 'utf8')) as QueryFile;

/** Corpus files to upload ("gps/DSCN0010.jpg"), and each one's capture time from labels.json. */
function corpusFiles(): { rel: string; taken: string | null }[] {
  const out: { rel: string; taken: string | null }[] = [];
  for (const folder of spec.folders) {
    const labels = JSON.parse(fs.readFileSync(path.join(CORPUS, folder, 'labels.json'), 'utf8')) as Record<string, { expected_metadata?: { datetime_original?: string } }>;
    let names = Object.keys(labels).filter((n) => /\.(jpe?g|png|heic|heif)$/i.test(n)).sort();
    if (folder === 'labelled') names = names.slice(0, spec.labelled_limit);
    for (const n of names) out.push({ rel: `${folder}/${n}`, taken: labels[n]?.expected_metadata?.datetime_original ?? null });
  }
  return out;
}

const print = (s: string) => process.stdout.write(`${s}\n`);

async function main(): Promise<void> {
  const modelsDir = await searchModelsDir();
  // Without CLIP: the stand-in is not made known to the server (no HEARTH_CLIP_STANDIN), and semantic search is switched off.
  const srv = await startServer({ env: { HEARTH_MODELS_DIR: modelsDir, ...(values.clip === 'standin' ? { HEARTH_CLIP_STANDIN: '1' } : {}) } });
  try {
    const c = new Client(srv.url);
    await registerAdmin(c);
    if (values.clip === 'none') await c.patch(`${V1}/settings/system`, { ml: { semantic_enabled: false } });
    print(`search precision bench: CLIP ${values.clip === 'none' ? 'none (semantic search switched off)' : 'stand-in (colour only)'}, OCR on (PP-OCRv4)`);

    const files = corpusFiles();
    const idOf = new Map<string, string>();
    const t0 = performance.now();
    for (const f of files) {
      const form = new FormData();
      form.set('file', new Blob([fs.readFileSync(path.join(CORPUS, f.rel))]), path.basename(f.rel));
      const res = await fetch(`${srv.url}${V1}/uploads/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${c.token}` } });
      const body = (await res.json()) as { asset_id?: string };
      if (!res.ok || !body.asset_id) throw new Error(`upload ${f.rel}: ${res.status} ${JSON.stringify(body)}`);
      idOf.set(body.asset_id, f.rel);
    }
    await srv.container.indexing.indexers.settled();
    await srv.container.jobRunner.whenIdle();
    print(`uploaded and indexed ${files.length} files in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const figures: QueryFigure[] = [];
    for (const lq of spec.queries) {
      const relevant = new Set(lq.taken ? files.filter((f) => f.taken?.startsWith(lq.taken!)).map((f) => f.rel) : (lq.relevant ?? []));
      const r = data(c, await c.post(`${V1}/assets/search`, { query: lq.q, pagination: { limit: 50 }, top_results_limit: 12 }));
      const listed = (r.result_items as { media_item: { primary_asset: { asset_id: string } } }[]).map((i) => idOf.get(i.media_item.primary_asset.asset_id) ?? '?');
      const first = listed.slice(0, 10);
      const hits = first.filter((f) => relevant.has(f)).length;
      const p10 = relevant.size === 0 ? (first.length === 0 ? 1 : 0) : first.length === 0 ? 0 : hits / first.length;
      const r10 = relevant.size === 0 ? 1 : hits / Math.min(10, relevant.size);
      const mw = r.top_results_meta?.matched_well;
      figures.push({ q: lq.q, kind: lq.kind, p10, r10, listed: r.results_total_visible as number, best: (r.top_items as unknown[]).length, matched_well: typeof mw === 'boolean' ? mw : null, reading: r.parsed?.reading ?? null });
    }

    const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
    print(`${pad('query', 30)} ${pad('kind', 7)} P@10  R@10  listed  best  well  reading`);
    for (const f of figures) {
      print(`${pad(JSON.stringify(f.q), 30)} ${pad(f.kind, 7)} ${f.p10.toFixed(2)}  ${f.r10.toFixed(2)}  ${String(f.listed).padStart(6)}  ${String(f.best).padStart(4)}  ${pad(f.matched_well === null ? '–' : f.matched_well ? 'yes' : 'no', 4)}  ${f.reading ?? '–'}`);
    }
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    print(`mean P@10 ${mean(figures.map((f) => f.p10)).toFixed(3)}, mean R@10 ${mean(figures.map((f) => f.r10)).toFixed(3)} over ${figures.length} queries`);
    for (const kind of [...new Set(figures.map((f) => f.kind))]) {
      const of = figures.filter((f) => f.kind === kind);
      print(`  ${pad(kind, 7)} P@10 ${mean(of.map((f) => f.p10)).toFixed(3)}  R@10 ${mean(of.map((f) => f.r10)).toFixed(3)}  (${of.length} queries)`);
    }
    if (values.json) fs.writeFileSync(values.json, JSON.stringify({ clip: values.clip, figures }, null, 1));
    if (values.baseline) {
      const old = JSON.parse(fs.readFileSync(values.baseline, 'utf8')) as { figures: QueryFigure[] };
      const byQ = new Map(old.figures.map((f) => [f.q, f]));
      const both = figures.filter((f) => byQ.has(f.q));
      print(`against ${values.baseline}: mean P@10 ${mean(both.map((f) => byQ.get(f.q)!.p10)).toFixed(3)} → ${mean(both.map((f) => f.p10)).toFixed(3)}, mean R@10 ${mean(both.map((f) => byQ.get(f.q)!.r10)).toFixed(3)} → ${mean(both.map((f) => f.r10)).toFixed(3)}`);
      for (const f of both) {
        const o = byQ.get(f.q)!;
        if (Math.abs(o.p10 - f.p10) > 1e-9 || Math.abs(o.r10 - f.r10) > 1e-9) print(`  ${pad(JSON.stringify(f.q), 30)} P@10 ${o.p10.toFixed(2)} → ${f.p10.toFixed(2)}  R@10 ${o.r10.toFixed(2)} → ${f.r10.toFixed(2)}  listed ${o.listed} → ${f.listed}`);
      }
    }
  } finally {
    await srv.stop({ removeData: true });
    fs.rmSync(modelsDir, { recursive: true, force: true });
  }
}

await main();

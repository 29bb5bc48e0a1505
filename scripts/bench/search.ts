/**
 * `npm run bench:search`: how fast and how well search answers on a large library (issue 13 point 7).
 *
 * Sections (each a function taking the shared options; `--sections vector,hybrid-http,indexing`):
 * - vector (scripts/bench/search/vector.ts): the vector index at 100k and 1M synthetic clustered 512-d vectors —
 *   build time and event-loop stall, memory, top-20 p50/p95 and recall@20 against the exact answer with no
 *   filter, 30% and 1% allowed; the candidates (sqlite-vec bit[512] KNN, usearch HNSW) and the sqlite-vec
 *   brute-force baseline on the same queries, with the ratio printed.
 *   Targets: top-20 p95 ≤ 20 ms at 1M with recall@20 ≥ 0.95.
 * - hybrid-http (scripts/bench/search/hybrid-http.ts): searchAssets over HTTP on a 100k-photo library with
 *   vectors, OCR lines, tags, descriptions and albums; p50/p95 whole request and per channel. Target p95 ≤ 50 ms.
 * - indexing (scripts/bench/search/indexing.ts): decode + CLIP preprocessing, embedding and OCR throughput
 *   (images/s) on the corpus; queryAssets p50/p95 idle and while indexing runs.
 *
 *   npm run bench:search [-- --sizes 100k,1m] [--queries 50] [--sections vector] [--candidates brute,bits,hnsw]
 *                         [--rebuild]
 * Defaults: sizes 100k; candidates brute,bits,hnsw at ≤100k and brute only at 1M (an HNSW over 1M vectors takes
 * most of an hour to build here; the bit[512] table another 2 GB of SQLite writes), unless --candidates is given.
 * 1M needs ~2 GB for the generated vectors plus the index (~600 MB) and ~2.5 GB of disk for the cached catalog.
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runHybridBench } from './search/hybrid-http.ts';
import { printIndexingFigures, runIndexingBench } from './search/indexing.ts';
import { vectorSection } from './search/vector.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface SearchBenchOptions {
  sizes: number[];
  queries: number;
  sections: string[];
  /** null: the defaults per size described above */
  candidates: string[] | null;
  rebuild: boolean;
  cacheDir: string;
  print: (line: string) => void;
}

export interface SearchBenchSection {
  name: string;
  run(opts: SearchBenchOptions): Promise<void>;
}

export const SECTIONS: SearchBenchSection[] = [
  {
    name: 'vector',
    async run(opts) {
      for (const size of opts.sizes) {
        await vectorSection({
          sizes: [size],
          queries: opts.queries,
          cacheDir: opts.cacheDir,
          rebuild: opts.rebuild,
          candidates: opts.candidates ?? (size <= 100_000 ? ['brute', 'bits', 'hnsw'] : ['brute']),
          print: opts.print,
        });
      }
    },
  },
  {
    // searchAssets end to end over HTTP at 100k photos, every channel answering (it prints its own lines).
    name: 'hybrid-http',
    async run(opts) {
      await runHybridBench({ queries: opts.queries });
    },
  },
  {
    // Decode/preprocess, embedding and OCR throughput; queryAssets idle and while indexing runs.
    name: 'indexing',
    async run() {
      printIndexingFigures(await runIndexingBench());
    },
  },
];

export function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(s.trim());
  if (!m) throw new Error(`not a size: ${s} (e.g. 100k, 1m)`);
  return Math.round(Number(m[1]) * (m[2]?.toLowerCase() === 'm' ? 1e6 : m[2]?.toLowerCase() === 'k' ? 1e3 : 1));
}

export async function runSearchBench(partial: Partial<SearchBenchOptions> = {}): Promise<void> {
  const opts: SearchBenchOptions = {
    sizes: [100_000],
    queries: 50,
    sections: SECTIONS.map((s) => s.name),
    candidates: null,
    rebuild: false,
    cacheDir: path.join(ROOT, '.tmp', 'bench-search'),
    print: (line) => console.log(line),
    ...partial,
  };
  opts.print(
    `bench:search — ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ` +
      `Node ${process.version}, ${new Date().toISOString()}`,
  );
  for (const section of SECTIONS) if (opts.sections.includes(section.name)) await section.run(opts);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  await runSearchBench({
    ...(arg('sizes') ? { sizes: arg('sizes')!.split(',').map(parseSize) } : {}),
    ...(arg('queries') ? { queries: Number(arg('queries')) } : {}),
    ...(arg('sections') ? { sections: arg('sections')!.split(',') } : {}),
    ...(arg('candidates') ? { candidates: arg('candidates')!.split(',') } : {}),
    rebuild: process.argv.includes('--rebuild'),
  });
}

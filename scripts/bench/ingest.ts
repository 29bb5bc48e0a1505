/**
 * `npm run bench:ingest`, part 1: end-to-end ingest throughput of the corpus JPEGs (index: detect +
 * BLAKE3; pipeline: EXIF, three WebP thumbnails from one decode, pHash, catalog writes, media item)
 * through the real IngestService and job queue, beside `vipsthumbnail` (Debian libvips-tools) making
 * one thumbnail per file with the same parallelism. Prints files/s for both, their ratio (target
 * ≥ 0.8) and the peak RSS of this process. Part 2 (uploads) is scripts/bench/upload.ts.
 *
 *   npm run bench:ingest [-- --rounds 3]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/src/config/env.ts';
import { createContainer } from '../../server/src/container.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { jobQueues } from '../../server/src/jobs.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpus');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 2;

function jpegs(): string[] {
  const out: string[] = [];
  for (const dir of fs.readdirSync(CORPUS)) {
    const d = path.join(CORPUS, dir);
    if (!fs.statSync(d).isDirectory()) continue;
    for (const f of fs.readdirSync(d)) if (/\.jpe?g$/i.test(f)) out.push(path.join(d, f));
  }
  return out.sort();
}

async function hearthRound(files: string[]): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-'));
  const config = loadConfig({ HEARTH_DATA_DIR: dataDir, HEARTH_PORT: '0', HEARTH_LOG_LEVEL: 'silent' });
  const c = createContainer(config, createLogger('silent'));
  const repo = c.repositories.primary()!;
  const owner = c.auth.users.insert({ username: 'bench', display_name: 'Bench', password_hash: 'x', role: 'admin', now: Date.now() }).user_id;
  files.forEach((f, i) => fs.copyFileSync(f, path.join(repo.path, `${i}-${path.basename(f)}`)));
  const t0 = performance.now();
  for (let i = 0; i < files.length; i++) {
    await c.ingest.indexFile({ repositoryId: repo.repository_id, relPath: `${i}-${path.basename(files[i]!)}`, ownerId: owner, source: 'scan' });
  }
  await c.jobRunner.whenIdle();
  const secs = (performance.now() - t0) / 1000;
  const ready = c.db.prepare("SELECT count(*) FROM assets WHERE state = 'ready'").pluck().get() as number;
  await c.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (ready < files.length * 0.95) throw new Error(`only ${ready} of ${files.length} became ready`);
  return files.length / secs;
}

async function vipsRound(files: string[], parallel: number): Promise<number> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'vips-bench-'));
  const queue = files.map((f, i) => [f, i] as const);
  const t0 = performance.now();
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const [f, i] = item;
      await new Promise<void>((resolve) => {
        const p = spawn('vipsthumbnail', [f, '--size', '400', '-o', path.join(out, `${i}.webp`)], { stdio: 'ignore' });
        p.on('exit', () => resolve());
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  const secs = (performance.now() - t0) / 1000;
  fs.rmSync(out, { recursive: true, force: true });
  return files.length / secs;
}

const files = jpegs();
const parallel = jobQueues().media!.concurrency;
console.log(`corpus JPEGs: ${files.length} files, ${(files.reduce((n, f) => n + fs.statSync(f).size, 0) / 1e6).toFixed(1)} MB; parallelism ${parallel}`);
let best = { hearth: 0, vips: 0 };
for (let r = 1; r <= rounds; r++) {
  const hearth = await hearthRound(files);
  const vips = await vipsRound(files, parallel);
  console.log(`round ${r}: hearth ${hearth.toFixed(1)} files/s (hash + EXIF + 3 thumbnails + pHash + catalog), vipsthumbnail ${vips.toFixed(1)} files/s (1 thumbnail)`);
  best = { hearth: Math.max(best.hearth, hearth), vips: Math.max(best.vips, vips) };
}
const ratio = best.hearth / best.vips;
console.log(`best: hearth ${best.hearth.toFixed(1)} files/s, vipsthumbnail ${best.vips.toFixed(1)} files/s, ratio ${ratio.toFixed(2)} (target ≥ 0.8)`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

/**
 * `npm run bench:ingest`, the scan line: a scan of an existing folder, as when a household registers
 * the folder its photos already live in.
 *
 * Every media file of the corpus (photos, RAW, HEIC, videos, audio; `--copies N` times, default 2) is
 * copied into the primary repository of a real container (in this process, as the server runs it)
 * before the clock starts, so the page cache is warm for every side. Then:
 *   - the scan: `scanRepositoryTree` over the folder, exactly as the scan job runs it (walk, content
 *     detection, BLAKE3 through the intake, the catalog rows and the queued processing jobs, one file
 *     at a time through the repository's lane). The job runner is stopped first, so the media
 *     pipeline of what was found does not run meanwhile: this line is the scan, the pipeline is
 *     `bench:ingest` part 1.
 *   - hashing alone, over the same files: the intake's `hashFile` (native BLAKE3 on its worker, what
 *     scans use now) and hash-wasm on the main thread (what scans used before the intake).
 * Prints files/s and MB/s of the scan, which hasher the intake used (its counters), the longest the
 * event loop was held during the scan (loop-watch.ts: monitorEventLoopDelay at 1 ms and a timer's drift), and
 * the two hashing rates. Then a large scan while a person browses: `--copies` more copies of the corpus put into
 * the library the first scan filled and scanned again (the server runs on loopback in this process, the job
 * runner still stopped), while a person browses it over HTTP (timeline buckets, a bucket's assets, the people
 * list, an asset's info): the longest event-loop stall during that scan (target ≤ 50 ms) and browsing p95 idle
 * vs during, side by side.
 *
 *   npx tsx scripts/bench/scan.ts [--copies 2] [--rounds 1]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashFile as wasmHashFile } from '../../server/src/adapters/media/hash.ts';
import { hashPassword } from '../../server/src/platform/crypto/passwords.ts';
import { scanDirectly } from '../../test/server/helpers/direct-scan.ts';
import { Browsing, LoopWatch, signIn, stallLine, startBenchServer } from './loop-watch.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpus');
const arg = (name: string, def: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : def);
const COPIES = arg('--copies', 2);
const ROUNDS = arg('--rounds', 1);
const PASSWORD = 'bench password 1';

/** Every file of the corpus but its notes (the scan itself tells media from the rest). */
function corpusFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!/\.(md|json|txt)$/i.test(e.name)) out.push(p);
    }
  };
  walk(CORPUS);
  return out.sort();
}

const mb = (bytes: number) => bytes / 1e6;

async function round(files: string[]): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-scan-bench-'));
  const server = await startBenchServer(dataDir);
  const c = server.container;
  try {
    await c.jobRunner.stop(); // the pipeline is part 1's; here only the scan runs
    const repo = c.repositories.primary()!;
    await c.repositories.stopWatching(repo.repository_id);
    const owner = c.auth.users.insert({ username: 'bench', display_name: 'Bench', password_hash: await hashPassword(PASSWORD), role: 'admin', now: Date.now() }).user_id;
    const past = new Date(Date.now() - 3600_000); // settled files: nothing waits for a copy to finish
    const copyCorpus = (from: number, to: number) => {
      const out: string[] = [];
      for (let k = from; k < to; k++) {
        files.forEach((f, i) => {
          const dest = path.join(repo.path, 'photos', `copy-${k}`, `${i}-${path.basename(f)}`);
          fs.mkdirSync(path.dirname(dest), { recursive: true });
          fs.copyFileSync(f, dest);
          fs.utimesSync(dest, past, past);
          out.push(dest);
        });
      }
      return out;
    };
    const copies = copyCorpus(0, COPIES);
    const bytes = copies.reduce((a, f) => a + fs.statSync(f).size, 0);

    const before = c.intake.stats();
    const scan = () => scanDirectly(c, owner);
    const loop = new LoopWatch().start();
    const t0 = performance.now();
    const out = await scan();
    const secs = (performance.now() - t0) / 1000;
    const held = loop.stop();
    const after = c.intake.stats();
    const used = (Object.keys(after) as (keyof typeof after)[])
      .map((k) => ({ k, files: after[k].files - before[k].files, bytes: after[k].bytes - before[k].bytes }))
      .filter((u) => u.files > 0);
    const hashedBytes = used.reduce((a, u) => a + u.bytes, 0);

    // Hashing alone, the same files: the intake's worker, then hash-wasm on this thread.
    const t1 = performance.now();
    for (const f of copies) await c.intake.hashFile(f, fs.statSync(f).size);
    const nativeSecs = (performance.now() - t1) / 1000;
    const t2 = performance.now();
    for (const f of copies) await wasmHashFile(f);
    const wasmSecs = (performance.now() - t2) / 1000;

    // A scan of --copies more copies into the library the scan above filled, while a person browses it.
    const browsing = await Browsing.prepare(server.base, await signIn(server.base, 'bench', PASSWORD));
    const idle = await browsing.idle(5);
    const more = copyCorpus(COPIES, 2 * COPIES);
    const watch = new LoopWatch().start();
    const t3 = performance.now();
    const { result: again, times } = await browsing.during(scan());
    const againSecs = (performance.now() - t3) / 1000;
    const stall = watch.stop();
    const browsingLines =
      `  a scan finding ${more.length} new files (${again.counts.added} catalogued) in the library above while a person browses it: ${againSecs.toFixed(2)} s ` +
      `(load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores)\n${stallLine('the scan', stall)}\n${browsing.report(idle, times)}`;

    return (
      `scan of an existing folder: ${copies.length} files, ${mb(bytes).toFixed(1)} MB (corpus x ${COPIES}); ` +
      `${out.counts.added} catalogued, ${out.counts.skipped} not media, ${out.counts.failed} failed in ${secs.toFixed(2)} s: ` +
      `${(copies.length / secs).toFixed(0)} files/s, ${(mb(hashedBytes) / secs).toFixed(0)} MB/s hashed ` +
      `(by ${used.map((u) => `${u.k.replace('_', ' BLAKE3 on the ')} thread: ${u.files} files`).join(', ') || 'nothing'}); ` +
      `event loop held at most ${held.longestMs.toFixed(0)} ms\n` +
      `  hashing alone, same files: intake (native BLAKE3, worker) ${(mb(bytes) / nativeSecs).toFixed(0)} MB/s; ` +
      `hash-wasm on the main thread (scans before the intake) ${(mb(bytes) / wasmSecs).toFixed(0)} MB/s\n` +
      browsingLines
    );
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const files = corpusFiles();
const lines: string[] = [];
for (let r = 0; r < ROUNDS; r++) {
  lines.push(await round(files));
  console.log(`round ${r + 1}: ${lines.at(-1)}`);
}
console.log(`\nscan bench (${os.availableParallelism()} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}):\n${lines.join('\n')}`);

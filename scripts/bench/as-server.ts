/**
 * Runs a bench script in a Node process launched the way the server is (config/process-launch.ts: its V8 flags
 * and allocator settings), for the benches that run the server inside their own process and measure its event
 * loop (bench:faces, bench:events): stalls and GC pauses are then those of the collector a household's server
 * has (its small young generation, the old generation growing by half), not tsx's defaults.
 *
 *   tsx scripts/bench/as-server.ts scripts/bench/faces.ts [args…]
 */
import { spawnSync } from 'node:child_process';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../server/src/config/process-launch.ts';

const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error('usage: tsx scripts/bench/as-server.ts <bench script> [args…]');
  process.exit(2);
}
const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', script, ...args], { stdio: 'inherit', env: { ...process.env, ...SERVER_MALLOC_ENV } });
if (run.error) {
  console.error(`bench: could not start ${script}: ${run.error.message}`);
  process.exit(1);
}
process.exit(run.status ?? 1);

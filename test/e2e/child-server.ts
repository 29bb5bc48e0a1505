/**
 * The real Hearth server as a child process on a random port and a data folder of the caller's: what
 * own-server.ts gives a spec, and what scripts/bench/timeline.ts measures against.
 *
 * It runs the bundle (`node server/dist/main.js`, as `npm start` does) when the test command built it
 * for this run (HEARTH_E2E_BUNDLE=1, set by scripts/test.ts after `build:server --if-changed`): a start
 * then skips compiling the server's TypeScript (about 1.5 s of CPU a start, 20 starts a run). Otherwise
 * (`npx playwright test` by hand, where server/dist may be stale) `node --import tsx server/src/main.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../server/src/config/process-launch.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Password hashes at scrypt's lowest cost: the specs sign up an account each (server/src/platform/crypto/passwords.ts). */
export const TEST_PASSWORDS = { NODE_ENV: 'test', HEARTH_TEST_CHEAP_PASSWORDS: '1' };

/** The built server, when this run built it (see the header). */
export function usesBundle(): boolean {
  return process.env.HEARTH_E2E_BUNDLE === '1' && fs.existsSync(path.join(ROOT, 'server/dist/main.js'));
}

/** How to start the server: its Node arguments. */
export function serverArgs(): string[] {
  return usesBundle() ? [...SERVER_NODE_FLAGS, 'server/dist/main.js'] : ['--import', 'tsx', 'server/src/main.ts'];
}

/** Starts the server and resolves once it prints HEARTH_READY, with its URL. `env` adds settings (a models folder, a mirror). */
export async function startChildServer(dataDir: string, apiVariant: 'A' | 'B', env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), serverArgs(), {
    cwd: ROOT,
    env: { ...process.env, ...(usesBundle() ? SERVER_MALLOC_ENV : {}), HEARTH_PORT: '0', HEARTH_HOST: '', HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: 'warn', HEARTH_API_VARIANT: apiVariant, HEARTH_ML_DEFAULT_ON: env.HEARTH_MODELS_DIR ? 'true' : 'false', ...TEST_PASSWORDS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${stderr}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /HEARTH_READY (\{.*\})/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${(JSON.parse(m[1]!) as { port: number }).port}`);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${stderr}`)));
  });
  return { url, child };
}

/** SIGTERM, and SIGKILL if it has not exited 10 s later. */
export async function stopChildServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * The real Hearth server as a child process (`node --import tsx server/src/main.ts`) on a random
 * port and a data folder of the caller's: what own-server.ts gives a spec, and what
 * scripts/bench/timeline.ts measures against.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Password hashes at scrypt's lowest cost: the specs sign up an account each (server/src/platform/crypto/passwords.ts). */
export const TEST_PASSWORDS = { NODE_ENV: 'test', HEARTH_TEST_CHEAP_PASSWORDS: '1' };

/** Starts the server and resolves once it prints HEARTH_READY, with its URL. `env` adds settings (a models folder, a mirror). */
export async function startChildServer(dataDir: string, apiVariant: 'A' | 'B', env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HEARTH_PORT: '0', HEARTH_HOST: '', HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: 'warn', HEARTH_API_VARIANT: apiVariant, HEARTH_ML_DEFAULT_ON: env.HEARTH_MODELS_DIR ? 'true' : 'false', ...TEST_PASSWORDS, ...env },
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

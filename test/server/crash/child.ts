/**
 * The real server as a child process for crash tests: started on a data folder (optionally with a
 * crash point armed, HEARTH_FAILPOINT), killed with SIGKILL, or awaited when a crash point kills it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';

export const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface Child {
  child: ChildProcess;
  url: string;
  /** Resolves with the signal (or exit code) once the process has exited. */
  exited: Promise<NodeJS.Signals | number | null>;
  output: () => string;
}

/**
 * Starts `server/src/main.ts` (or, with `argv`, what those node arguments name: a built bundle);
 * resolves once it prints HEARTH_READY. `env` adds variables (for example HEARTH_FAILPOINT).
 * Rejects when the process exits before it is ready.
 */
export function startChild(dataDir: string, env: Record<string, string> = {}, opts: { argv?: string[]; cwd?: string } = {}): Promise<Child> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), opts.argv ?? ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, HEARTH_PORT: '0', HEARTH_HOST: '127.0.0.1', HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: 'warn', HEARTH_ML_DEFAULT_ON: env.HEARTH_MODELS_DIR ? 'true' : 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}`)), 90_000);
    const on = (d: Buffer) => {
      out += d.toString();
      const m = /HEARTH_READY (\{.*\})/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${(JSON.parse(m[1]!) as { port: number }).port}`, exited, output: () => out });
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${how}) before it was ready:\n${out}`));
    });
  });
}

/** SIGKILL (what a power cut does to the process), and wait for it to be gone. */
export async function kill9(c: Child): Promise<void> {
  if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await c.exited;
}

/** SIGTERM (a clean stop), SIGKILL after 15 s. */
export async function stopChild(c: Child): Promise<void> {
  if (c.child.exitCode !== null || c.child.signalCode !== null) return;
  c.child.kill('SIGTERM');
  const t = setTimeout(() => c.child.kill('SIGKILL'), 15_000);
  await c.exited;
  clearTimeout(t);
}

/** Reads the catalog of a stopped (or running: WAL) server. */
export function openCatalog(dataDir: string): Database.Database {
  const db = new Database(path.join(dataDir, 'catalog.sqlite3'), { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Polls `fn` until it returns a truthy value; fails after `ms`. */
export async function until<T>(what: string, fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

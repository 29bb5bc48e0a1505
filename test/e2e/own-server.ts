/**
 * A Hearth server of a spec file's own: a child process on a random port and a temporary data
 * folder, started once per worker and stopped (its data removed) after, so a spec does not depend on
 * what another one did. `files` is a temporary folder holding copies of the corpus files asked for.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CORPUS = path.resolve(ROOT, '../shared/corpus');

export interface OwnServer {
  url: string;
  files: string;
  dataDir: string;
}

export function withOwnServer(name: string, corpusFiles: readonly string[]) {
  return base.extend<object, { hearth: OwnServer }>({
    hearth: [
      async ({}, use) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hearth-e2e-${name}-`));
        const files = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-files-'));
        for (const rel of corpusFiles) fs.copyFileSync(path.join(CORPUS, rel), path.join(files, path.basename(rel)));
        const child: ChildProcess = spawn(path.join(ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'server/src/main.ts'], {
          cwd: ROOT,
          env: { ...process.env, HEARTH_PORT: '0', HEARTH_HOST: '127.0.0.1', HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: 'warn', HEARTH_API_VARIANT: 'B' },
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
        await use({ url, files, dataDir });
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.rmSync(files, { recursive: true, force: true });
      },
      { scope: 'worker', timeout: 90_000 },
    ],
    baseURL: async ({ hearth }, use) => use(hearth.url),
  });
}

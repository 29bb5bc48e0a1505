/**
 * A Hearth server of a spec file's own: a child process on a random port and a temporary data
 * folder, started once per worker and stopped (its data removed) after, so a spec does not depend on
 * what another one did. `files` is a temporary folder holding copies of the corpus files asked for.
 * `options.env` adds server settings, made when the server starts (for example a models folder the
 * spec prepares: see search.spec.ts); `options.cleanup` removes what that made.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { ROOT, startChildServer, stopChildServer } from './child-server.ts';

export const CORPUS = path.resolve(ROOT, '../shared/corpus');

export interface OwnServer {
  url: string;
  files: string;
  dataDir: string;
}

export interface OwnServerOptions {
  env?: () => Record<string, string> | Promise<Record<string, string>>;
  cleanup?: () => void;
}

export function withOwnServer(name: string, corpusFiles: readonly string[], options: OwnServerOptions = {}) {
  return base.extend<object, { hearth: OwnServer }>({
    hearth: [
      // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring; it must be an object pattern, and this fixture needs none
      async ({}, use) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hearth-e2e-${name}-`));
        const files = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-files-'));
        for (const rel of corpusFiles) fs.copyFileSync(path.join(CORPUS, rel), path.join(files, path.basename(rel)));
        const { url, child } = await startChildServer(dataDir, 'B', (await options.env?.()) ?? {});
        await use({ url, files, dataDir });
        await stopChildServer(child);
        options.cleanup?.();
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.rmSync(files, { recursive: true, force: true });
      },
      { scope: 'worker', timeout: 90_000 },
    ],
    baseURL: async ({ hearth }, use) => use(hearth.url),
  });
}

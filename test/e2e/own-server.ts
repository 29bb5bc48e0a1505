/**
 * A Hearth server of a spec file's own: a child process on a random port and a temporary data
 * folder, started once per worker and stopped (its data removed) after, so a spec does not depend on
 * what another one did. `files` is a temporary folder holding copies of the corpus files asked for.
 * `options.env` adds server settings, made when the server starts (for example a models folder the
 * spec prepares: see search.spec.ts); `options.cleanup` removes what that made.
 *
 * `options.template`: the data folder starts as a copy of that recipe's template (test/template): the
 * spec's administrator signed up and its corpus files ingested once per run (the test command's
 * "template" phase builds it; a run by hand builds it here on first use), instead of uploaded by the
 * spec. Only for specs whose subject is not the upload itself (library and upload-restore upload).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { ROOT, startChildServer, stopChildServer } from './child-server.ts';
import { builtTemplate, copyTemplate, type TemplateManifest } from '../template/build.ts';
import type { Recipe } from '../template/recipes.ts';

export const CORPUS = path.resolve(ROOT, '../shared/corpus');

export interface OwnServer {
  url: string;
  files: string;
  dataDir: string;
  /** With `options.template`: the template's users and asset ids. */
  template: TemplateManifest | null;
}

export interface OwnServerOptions {
  env?: () => Record<string, string> | Promise<Record<string, string>>;
  cleanup?: () => void;
  template?: Recipe;
}

/** The recipe's template, built in a process of its own when missing (it runs a whole server). */
function templateOf(recipe: Recipe): NonNullable<ReturnType<typeof builtTemplate>> {
  const built = builtTemplate(recipe);
  if (built) return built;
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'test/template/build.ts', recipe.name], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', HEARTH_TEST_CHEAP_PASSWORDS: '1' },
    encoding: 'utf8',
  });
  const after = builtTemplate(recipe);
  if (!after) throw new Error(`the template ${recipe.name} could not be built: ${r.stderr}${r.stdout}`);
  return after;
}

export function withOwnServer(name: string, corpusFiles: readonly string[], options: OwnServerOptions = {}) {
  return base.extend<object, { hearth: OwnServer }>({
    hearth: [
      // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring; it must be an object pattern, and this fixture needs none
      async ({}, use) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hearth-e2e-${name}-`));
        const files = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-files-'));
        for (const rel of corpusFiles) fs.copyFileSync(path.join(CORPUS, rel), path.join(files, path.basename(rel)));
        let template: TemplateManifest | null = null;
        if (options.template) {
          const built = templateOf(options.template);
          fs.rmSync(dataDir, { recursive: true, force: true });
          copyTemplate(built.dir, built.manifest, dataDir);
          template = built.manifest;
        }
        const { url, child } = await startChildServer(dataDir, 'B', (await options.env?.()) ?? {});
        await use({ url, files, dataDir, template });
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

/**
 * Browser tests of the web UI against the real server on a fresh, empty data folder (so every run
 * starts at the first-run page). The UI must be built first: the test command does it; by hand, run
 * `npx vite build --config renderer/vite.config.ts` before `npx playwright test`.
 *
 * Two workers: every spec but first-run brings its own server and data folder (own-server.ts), so
 * two spec files share nothing and run side by side. Three projects:
 * - `first-run`: the one spec on the shared server below, whose empty folder it turns into a
 *   household: one worker, so its serial steps keep their order and nothing else signs up there.
 * - `parallel`: the other specs, two files at a time.
 * - `heavy`: timeline-100k (100,000 rows written and scrolled) and a11y (every screen at two sizes
 *   through axe), the two longest specs (~130 and ~112 s): after `parallel`, side by side, so neither
 *   is the last spec of `parallel` with one worker idle beside it. (They ran one after the other until
 *   2026-11-30: ~240 s of the phase; nothing in either is timed, their bounds are counts of tiles and
 *   requests.) A failure in `parallel` skips them (and the run fails either way).
 *
 * Chromium is the system one (/usr/bin/chromium): this machine cannot download Playwright's browsers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { SERVER_MALLOC_ENV } from './server/src/config/process-launch.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/e2e/chromium.ts';
import { serverArgs, TEST_PASSWORDS, usesBundle } from './test/e2e/child-server.ts';

// A port picked once per run (workers inherit it): two runs on one machine must not collide.
process.env.HEARTH_E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
const PORT = Number(process.env.HEARTH_E2E_PORT);
const baseURL = `http://127.0.0.1:${PORT}`;

if (!fs.existsSync(path.join(import.meta.dirname, 'renderer/dist/index.html'))) {
  throw new Error('The web UI is not built: run `npx vite build --config renderer/vite.config.ts` first.');
}

// Playwright loads this file again in each worker process; they inherit the environment, so the
// folder is created once, by the runner, and removed when the runner exits (after the server stops).
if (!process.env.HEARTH_E2E_DATA_DIR) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-'));
  process.env.HEARTH_E2E_DATA_DIR = dataDir;
  process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
}
const dataDir = process.env.HEARTH_E2E_DATA_DIR;

/** Specs that run after the others, alone (see the header). */
const HEAVY = [/timeline-100k\.spec\.ts$/, /a11y\.spec\.ts$/];

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'first-run', testMatch: /first-run\.spec\.ts$/, workers: 1 },
    { name: 'parallel', testIgnore: [/first-run\.spec\.ts$/, ...HEAVY] },
    { name: 'heavy', testMatch: HEAVY, dependencies: ['parallel'] },
  ],
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    browserName: 'chromium',
    baseURL,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    // A failed test keeps its trace (DOM snapshots of every action, network, console) and a screenshot of the
    // end (`screenshot` below). The trace's screencast is left out: recording a frame stream of every test costs
    // ~1.5 s of CPU a test (trash.spec, 4 tests: 22-26 s of CPU with it, 18-19 s without, 2026-11-30).
    trace: { mode: 'retain-on-failure', screenshots: false, sources: false },
    screenshot: 'only-on-failure',
    // A click that cannot happen fails within this, with its reason, rather than
    // waiting out a long test's whole time (some tests allow many minutes for many screens).
    actionTimeout: 45_000,
  },
  webServer: {
    // The bundle when the test command built it for this run, as own servers do (test/e2e/child-server.ts).
    command: usesBundle() ? `node ${serverArgs().join(' ')}` : 'npx tsx server/src/main.ts',
    url: `${baseURL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      HEARTH_PORT: String(PORT),
      HEARTH_HOST: '127.0.0.1',
      HEARTH_DATA_DIR: dataDir,
      HEARTH_LOG_LEVEL: 'warn',
      // ML indexing off: OCR on every photo the specs upload would slow the UI the specs time (specs about
      // search and models start their own server with it on).
      HEARTH_ML_DEFAULT_ON: 'false',
      // Not the default on purpose: the UI asks for variant A on every request, so it must work
      // on an installation that made variant B (enveloped responses, no cookie) its default.
      HEARTH_API_VARIANT: 'B',
      ...TEST_PASSWORDS,
      ...(usesBundle() ? SERVER_MALLOC_ENV : {}),
    },
  },
});

/**
 * The desktop shell runs the server from an esbuild bundle (electron/dist/server/, built by scripts/build-server.ts) in a utility
 * process. Electron itself cannot launch here, but the bundle it forks is plain Node: build it and
 * check that it starts on a fresh data folder and answers.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { startChild, stopChild } from './crash/child.ts';
import { tempDataDir } from './helpers/server.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('desktop server bundle', () => {
  test('builds and serves the API from a fresh data folder', { timeout: 120_000 }, async () => {
    const build = spawnSync('npm', ['run', '--silent', 'build:electron'], { cwd: root, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    // The worker threads (HEIC decoding, upload hashing) must be where the server looks for them.
    const dist = path.join(root, 'electron/dist/server');
    for (const f of ['main.js', 'heic-worker.js', 'hash-worker.js', 'cluster-worker.js', 'package.json', 'migrations/0001_foundation.sql']) {
      assert.ok(fs.existsSync(path.join(dist, f)), `electron/dist/server/${f} is built`);
    }
    const server = await startChild(tempDataDir(), {}, { argv: [path.join(dist, 'main.js')] });
    try {
      const health = (await (await fetch(`${server.url}/api/v1/health`)).json()) as { status: string };
      assert.equal(health.status, 'ok');
      const boot = (await (await fetch(`${server.url}/api/v1/auth/bootstrap`)).json()) as { bootstrap_mode: boolean };
      assert.equal(boot.bootstrap_mode, true, 'migrations ran from the bundle');
    } finally {
      await stopChild(server);
    }
  });
});

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
import { serverForkOptions } from '../../electron/server-launch.ts';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../server/src/config/process-launch.ts';
import { startChild, stopChild } from './crash/child.ts';
import { tempDataDir } from './helpers/server.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('desktop server bundle', () => {
  test('builds and serves the API from a fresh data folder, launched as the desktop shell launches it', { timeout: 120_000 }, async () => {
    const build = spawnSync('npm', ['run', '--silent', 'build:electron'], { cwd: root, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    // The worker threads (HEIC decoding, upload hashing) must be where the server looks for them.
    const dist = path.join(root, 'electron/dist/server');
    for (const f of ['main.js', 'heic-worker.js', 'hash-worker.js', 'cluster-worker.js', 'package.json', 'migrations/0001_foundation.sql']) {
      assert.ok(fs.existsSync(path.join(dist, f)), `electron/dist/server/${f} is built`);
    }
    // Started as the desktop shell starts it (electron/server-launch.ts): `npm start`'s Node flags and
    // allocator settings, the user's own environment winning over the allocator defaults.
    const dataDir = tempDataDir();
    const folders = { dataDir, modelsDir: path.join(dataDir, 'models'), shippedModelsDir: path.join(root, 'models'), uiDir: path.join(root, 'renderer/dist') };
    const launch = serverForkOptions(folders, { PATH: process.env.PATH, HEARTH_PORT: '0', MALLOC_ARENA_MAX: '4' });
    assert.deepEqual(launch.execArgv, [...SERVER_NODE_FLAGS], 'the desktop server gets the same Node flags as npm start');
    assert.equal(launch.env.MALLOC_MMAP_THRESHOLD_, SERVER_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_);
    assert.equal(launch.env.MALLOC_ARENA_MAX, '4', "the user's own allocator setting wins");
    assert.equal(launch.env.HEARTH_DATA_DIR, dataDir);
    const env = Object.fromEntries(Object.entries(launch.env).filter((e): e is [string, string] => e[1] !== undefined));
    const server = await startChild(dataDir, env, { argv: [...launch.execArgv, path.join(dist, 'main.js')] });
    try {
      // The running server has them: its command line and its environment (what glibc read at start).
      const pid = server.child.pid!;
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      for (const flag of SERVER_NODE_FLAGS) assert.ok(cmdline.includes(flag), `the server runs with ${flag}`);
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      assert.ok(environ.includes(`MALLOC_MMAP_THRESHOLD_=${SERVER_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_}`));
      const health = (await (await fetch(`${server.url}/api/v1/health`)).json()) as { status: string };
      assert.equal(health.status, 'ok');
      const boot = (await (await fetch(`${server.url}/api/v1/auth/bootstrap`)).json()) as { bootstrap_mode: boolean };
      assert.equal(boot.bootstrap_mode, true, 'migrations ran from the bundle');
    } finally {
      await stopChild(server);
    }
  });
});

/**
 * The desktop shell runs the server from an esbuild bundle (electron/dist/server/, built by scripts/build-server.ts) in a utility
 * process. Electron itself cannot launch here, but the bundle it forks is plain Node: build it and
 * check that it starts on a fresh data folder and answers; then run its utility-process entry
 * (electron/dist/server-entry.cjs) under the app's own supervisor (electron/desktop/server-supervisor.ts),
 * forked exactly as utilityProcess.fork forks it, through first run, a crash and a clean stop.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { ServerSupervisor } from '../../electron/desktop/server-supervisor.ts';
import { firstRunPage } from '../../electron/desktop/first-run.ts';
import { alive, forked, nodeFork } from '../electron/fork.ts';
import { serverForkOptions } from '../../electron/server-launch.ts';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../server/src/config/process-launch.ts';
import { startChild, stopChild } from './crash/child.ts';
import { tempDataDir } from './helpers/server.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('desktop server bundle', () => {
  // One build for both tests (the slow part of this file).
  let build: SpawnSyncReturns<string>;
  before(() => {
    build = spawnSync('npm', ['run', '--silent', 'build:electron'], { cwd: root, encoding: 'utf8' });
  });

  test('builds and serves the API from a fresh data folder, launched as the desktop shell launches it', { timeout: 120_000 }, async () => {
    assert.equal(build.status, 0, build.stderr);
    // The worker threads (HEIC decoding, upload hashing) must be where the server looks for them.
    const dist = path.join(root, 'electron/dist/server');
    for (const f of ['../main.cjs', '../preload.cjs', '../server-entry.cjs', 'main.js', 'heic-worker.js', 'hash-worker.js', 'cluster-worker.js', 'package.json', 'migrations/0001_foundation.sql']) {
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

  test('the utility-process entry under the app supervisor: ready, first run, restarted after a crash, stopped cleanly by message', { timeout: 180_000 }, async () => {
    assert.equal(build.status, 0, build.stderr);
    const dataDir = tempDataDir();
    let output = '';
    const crashes: (number | null)[] = [];
    const supervisor = new ServerSupervisor({
      entry: path.join(root, 'electron/dist/server-entry.cjs'),
      folders: { dataDir, modelsDir: path.join(dataDir, 'models'), shippedModelsDir: path.join(root, 'models'), uiDir: path.join(root, 'renderer/dist') },
      fork: nodeFork,
      env: { ...process.env, HEARTH_PORT: '0', HEARTH_HOST: '127.0.0.1', HEARTH_LOG_LEVEL: 'info', HEARTH_ML_DEFAULT_ON: 'false' },
      backoff: { baseMs: 100 },
      onOutput: (d) => (output += d.toString()),
      onCrash: ({ code }) => crashes.push(code),
    });
    try {
      const url = await supervisor.start();
      assert.equal(((await (await fetch(new URL('api/v1/health', url))).json()) as { status: string }).status, 'ok');
      assert.equal(await firstRunPage(url), new URL('/', url).href, 'a fresh install: the window opens on creating the administrator');

      // The server process dies (a native crash): the supervisor starts it again on the same data folder.
      const first = nodeForkedPid();
      process.kill(first, 'SIGKILL');
      while (supervisor.starts < 2 || supervisor.url === url || !supervisor.running) await new Promise((r) => setTimeout(r, 50));
      const again = await waitForHealth(supervisor);
      assert.equal(again, 'ok', 'answering again after the restart');
      assert.deepEqual(crashes, [null], 'one crash (killed by a signal: no exit code)');
      assert.notEqual(nodeForkedPid(), first, 'a new process');
      assert.equal(alive(first), false);

      // Quit: the stop message makes the server run its own SIGTERM shutdown, and it exits by itself.
      const last = nodeForkedPid();
      assert.equal(await supervisor.stop(), 'stopped', 'exited cleanly before the hard timeout');
      assert.match(output, /"signal":"SIGTERM".*"msg":"shutting down"|"msg":"shutting down".*"signal":"SIGTERM"/, "the server's own clean shutdown ran");
      assert.equal(alive(last), false);
    } finally {
      await supervisor.stop();
    }
  });
});

/** The pid of the newest server process forked (test/electron/fork.ts keeps them). */
function nodeForkedPid(): number {
  return forked.at(-1)!.pid!;
}

async function waitForHealth(supervisor: ServerSupervisor): Promise<string> {
  for (;;) {
    try {
      const res = await fetch(new URL('api/v1/health', supervisor.url!));
      return ((await res.json()) as { status: string }).status;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

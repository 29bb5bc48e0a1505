/**
 * The server supervisor (electron/desktop/server-supervisor.ts) with real child processes: a scripted
 * stand-in (fixtures/scripted-server.mjs) that starts, crashes or ignores a stop on cue, forked as the
 * utility process forks the server. The real server bundle under the same supervisor:
 * test/server/electron-bundle.test.ts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ServerSupervisor, DEFAULT_BACKOFF, type SupervisorOptions } from '../../electron/desktop/server-supervisor.ts';
import { alive, nodeFork } from './fork.ts';

const ENTRY = path.join(import.meta.dirname, 'fixtures/scripted-server.mjs');

function supervisor(env: Record<string, string>, extra: Partial<SupervisorOptions> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-supervisor-'));
  const crashes: { code: number | null; restartInMs: number }[] = [];
  const gaveUp: { code: number | null; fastCrashes: number; output: string }[] = [];
  const readies: string[] = [];
  let output = '';
  const s = new ServerSupervisor({
    entry: ENTRY,
    folders: { dataDir: dir, modelsDir: dir, shippedModelsDir: dir, uiDir: dir },
    fork: nodeFork,
    env: { PATH: process.env.PATH, SCRIPTED_COUNTER: path.join(dir, 'starts'), ...env },
    backoff: { baseMs: 20, maxMs: 1_000, stableMs: 60_000, maxFastCrashes: 3 },
    onCrash: (c) => crashes.push(c),
    onGiveUp: (g) => gaveUp.push(g),
    onReady: (url) => readies.push(url),
    onOutput: (d) => (output += d.toString()),
    ...extra,
  });
  return { s, crashes, gaveUp, readies, output: () => output, starts: () => fs.readFileSync(path.join(dir, 'starts'), 'utf8').trim().split('\n').map(Number) };
}

describe('desktop server supervisor', { timeout: 60_000 }, () => {
  test('waits for ready, and a clean stop lets the server finish its step and exit by itself (no kill)', async () => {
    const { s, output, starts } = supervisor({ SCRIPTED_MODE: 'serve' });
    const url = await s.start();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.equal((await fetch(url)).status, 200, 'the server answers once ready');
    const [pid] = starts();
    assert.equal(await s.stop(), 'stopped');
    assert.match(output(), /finishing the current step\nstep finished/, 'the stop message reached the server, which finished its step');
    assert.equal(alive(pid), false);
    assert.equal(s.running, false);
  });

  test('a crash after ready starts the server again, each fast crash waiting twice as long, and it gives up after N', async () => {
    const { s, crashes, gaveUp, readies, starts } = supervisor({ SCRIPTED_MODE: 'crash-after', SCRIPTED_DELAY_MS: '30' });
    await s.start();
    // 1 start + 3 restarts, then the 4th fast crash in a row is one too many.
    while (!s.givenUp) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(crashes.map((c) => c.restartInMs), [20, 40, 80], 'exponential backoff');
    assert.ok(crashes.every((c) => c.code === 4));
    assert.equal(gaveUp.length, 1);
    assert.equal(gaveUp[0]!.fastCrashes, 3);
    assert.equal(starts().length, 4, 'not started again after giving up');
    assert.equal(readies.length, 4, 'each start was waited for until ready');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(starts().length, 4, 'still not started again');
    assert.equal(await s.stop(), 'not-running');
  });

  test('crashes before ready are retried with backoff; start() resolves when one start holds', async () => {
    const { s, crashes, starts } = supervisor({ SCRIPTED_MODE: 'crash-first', SCRIPTED_CRASHES: '2' });
    const url = await s.start();
    assert.equal((await fetch(url)).status, 200);
    assert.deepEqual(crashes.map((c) => [c.code, c.restartInMs]), [[5, 20], [5, 40]]);
    assert.equal(starts().length, 3);
    assert.equal(await s.stop(), 'stopped');
  });

  test('every start crashing before ready: start() rejects after giving up', async () => {
    const { s, gaveUp } = supervisor({ SCRIPTED_MODE: 'crash' });
    await assert.rejects(s.start(), /stopped 3 times in a row \(last exit code 3\)/);
    assert.equal(gaveUp.length, 1);
    assert.match(gaveUp[0]!.output, /crashing on start 4/, "the server's last output is kept for the error dialog");
  });

  test('a server that ran long before crashing starts the count again: the delay stays at the base', async () => {
    // The clock jumps past stableMs between each ready and its crash.
    let clock = 0;
    const { s, crashes, gaveUp } = supervisor({ SCRIPTED_MODE: 'crash-after', SCRIPTED_DELAY_MS: '30' }, { now: () => (clock += 61_000) });
    await s.start();
    while (crashes.length < 5) await new Promise((r) => setTimeout(r, 20));
    await s.stop();
    assert.deepEqual(crashes.slice(0, 5).map((c) => c.restartInMs), [20, 20, 20, 20, 20]);
    assert.equal(gaveUp.length, 0, 'never given up: no fast crashes in a row');
  });

  test('a server that ignores the stop is killed after the stop timeout', async () => {
    const { s, output, starts } = supervisor({ SCRIPTED_MODE: 'ignore-stop' }, { stopTimeoutMs: 300 });
    await s.start();
    const [pid] = starts();
    assert.equal(await s.stop(), 'killed');
    assert.match(output(), /stop ignored/);
    assert.equal(alive(pid), false);
  });

  test('the delay policy: base·2^(n-1), capped', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => ServerSupervisor.delayFor(n, DEFAULT_BACKOFF)), [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
  });
});

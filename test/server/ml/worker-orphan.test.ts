/**
 * An inference worker whose server dies ends quietly. The worker is a child process (inference-runner.ts); when
 * the server is killed, the worker may still be finishing a message and send its answer before it has seen the
 * channel close. That send fails with EPIPE, and without a callback Node raised it as an unhandled 'error' event:
 * a stack trace on the terminal the server shared with it (seen at the end of `bench:import`, issue 25).
 *
 * Made to happen every time here: a stand-in server (a child process of this test) starts a worker, has it load
 * the OCR classifier with a first run, then sends a run whose feeds take the worker's thread a while to build and
 * then fail synchronously (a tensor type onnxruntime does not know), so that its answer is sent at once, with no
 * turn of the event loop between. The server kills itself while the worker builds. The worker must leave without
 * a trace on the shared stderr.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { CLS_MODEL, SHARED_MODELS } from './models.ts';
import { modelEntry } from '../../../server/src/adapters/ml/index.ts';

const runnerModule = path.resolve(import.meta.dirname, '../../../server/src/adapters/ml/inference-runner.ts');

test('a worker answering after its server was killed (EPIPE) ends without an unhandled error on the shared stderr', async () => {
  const file = modelEntry(CLS_MODEL)!.files[0]!;
  const server = `
    const fs = require('node:fs');
    const crypto = require('node:crypto');
    const { startRunner } = require(${JSON.stringify(runnerModule)});
    const file = ${JSON.stringify(path.join(SHARED_MODELS, file.path))};
    const bytes = fs.readFileSync(file);
    const model = { id: 'cls', file, bytes: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
    const runner = startRunner('process', { onnxruntime: require.resolve('onnxruntime-node'), intraOpThreads: 1, nice: 0 });
    runner.on('message', (m) => {
      if (m.id !== 1) return;
      if (!m.ok) throw new Error('the first run failed: ' + m.error);
      // Feeds that take a while to expand (48M pixels), the last with a type onnxruntime refuses at once.
      const big = (type) => ({ type, dims: [1, 1, 4000, 4000], data: new Uint8Array(4), pixels: { width: 4000, height: 4000, order: [0], scale: [1], offset: [0] } });
      runner.postMessage({ op: 'run', id: 2, model, feeds: { a: big('float32'), b: big('float32'), c: big('no-such-type') } });
      setTimeout(() => process.kill(process.pid, 'SIGKILL'), 100);
    });
    runner.postMessage({ op: 'run', id: 1, model, feeds: { x: { type: 'float32', dims: [1, 3, 48, 192], data: new Float32Array(3 * 48 * 192) } } });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', server], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  child.stdout.resume();
  // 'close' comes when every holder of the pipes has gone: the server and the worker it started.
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  assert.equal(signal, 'SIGKILL', `the stand-in server was killed as planned (exit ${code}): ${stderr}`);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|Error/, 'nothing on the shared stderr');
});

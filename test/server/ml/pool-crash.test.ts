/**
 * A crash of the native model runtime fails only the inference in flight (issue 29: "inference isolated"). The
 * pool runs onnxruntime in child processes; here the child running an inference dies of a segmentation fault
 * (SIGSEGV sent to it, as a fault inside onnxruntime's native code ends it): that call is rejected with an
 * InferenceError naming the worker, this process (the server's) goes on, and the next inference starts a new
 * worker and gives the same answer as before the crash. Linux (/proc) finds the worker's pid.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { InferenceError, MlRuntime, type Feeds } from '../../../server/src/adapters/ml/index.ts';
import { CLS_MODEL, SHARED_MODELS } from './models.ts';

/** The pids of this process's children running the inference worker script. */
function inferenceChildren(): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const env = fs.readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (env.includes('HEARTH_INFERENCE_WORKER=')) out.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** A batch of crops for the OCR direction classifier: big enough that a run lasts while the worker is killed. */
function feeds(batch: number, seed: number): Feeds {
  const data = new Float32Array(batch * 3 * 48 * 192);
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.37 + seed);
  return { x: { type: 'float32', dims: [batch, 3, 48, 192], data } };
}

test('a worker killed by a segmentation fault fails only the inference in flight; the next one gets a new worker and the same answer', { skip: process.platform !== 'linux' && 'finds the worker through /proc' }, async () => {
  const ml = new MlRuntime({ modelsDir: SHARED_MODELS, dataDir: null });
  try {
    const before = await ml.run(CLS_MODEL, feeds(2, 1));
    assert.equal(ml.pool.isolation, 'process');
    const [worker] = inferenceChildren();
    assert.ok(worker, 'the inference ran in a child process of this one');

    // A long run (a large batch), and the fault while it runs.
    const inFlight = ml.run(CLS_MODEL, feeds(400, 2));
    const outcome = inFlight.then(
      () => 'finished',
      (e: unknown) => e,
    );
    await sleep(20);
    process.kill(worker, 'SIGSEGV');
    const failure = await outcome;
    assert.ok(failure instanceof InferenceError, `the call in flight fails: ${String(failure)}`);
    assert.equal(failure.phase, 'worker');
    assert.equal(failure.modelId, CLS_MODEL);

    // The pool goes on: a new worker, the same answer as before the crash.
    const after = await ml.run(CLS_MODEL, feeds(2, 1));
    assert.deepEqual(Array.from(after['softmax_0.tmp_0']!.data as Float32Array), Array.from(before['softmax_0.tmp_0']!.data as Float32Array));
    assert.ok(!inferenceChildren().includes(worker), 'the dead worker is gone');
    assert.equal(inferenceChildren().length, 1);
  } finally {
    await ml.close();
  }
});

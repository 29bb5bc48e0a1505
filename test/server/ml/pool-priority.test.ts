/**
 * Indexing runs below the server (issue 25: the server's own work keeps its share of a small machine while the
 * models index): the inference workers started for background work lower their own priority as they start, every
 * thread of theirs included (onnxruntime's and the ones Node started first), while a worker started for a query
 * keeps the server's. Read from /proc, on real child processes running a real model (Linux: a priority per thread).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { MlRuntime, type Feeds } from '../../../server/src/adapters/ml/index.ts';
import { CLS_MODEL, SHARED_MODELS } from './models.ts';

const SHIPPED = path.resolve(import.meta.dirname, '../../../models');

/** A blank 192×48 crop: the direction classifier's input (its answer does not matter here). */
const clsFeeds = (): Feeds => ({ x: { type: 'float32', dims: [1, 3, 48, 192], data: new Float32Array(3 * 48 * 192) } });

/** /proc/<pid>/stat's fields after the command's closing parenthesis (the name may hold spaces). */
function statFields(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** The inference workers this process started: pid → the nice value of each of their threads. */
function workerNices(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      // state, ppid, … : ppid is the second field after the name, nice the 17th.
      if (Number(statFields(`/proc/${pid}/stat`)[1]) !== process.pid) continue;
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes('HEARTH_INFERENCE_WORKER=')) continue;
      const tids = fs.readdirSync(`/proc/${pid}/task`);
      out.set(pid, tids.map((tid) => Number(statFields(`/proc/${pid}/task/${tid}/stat`)[16])));
    } catch {
      // A process that ended while being read is not one of ours any more.
    }
  }
  return out;
}

describe('inference pool: indexing runs below the server', { skip: process.platform !== 'linux' && 'a priority per thread is read from Linux /proc', timeout: 120_000 }, () => {
  test('a worker started for indexing runs every thread at nice 10; one started for a query at the server\'s own', async () => {
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, shippedModelsDir: SHIPPED, dataDir: null, maxWorkers: 1 });
    try {
      const mine = statFields('/proc/self/stat')[16];
      assert.equal(mine, '0', 'the test itself runs at nice 0');
      // A query first: its worker keeps the server's priority.
      await ml.run(CLS_MODEL, clsFeeds(), 'interactive');
      const afterQuery = workerNices();
      assert.equal(afterQuery.size, 1, 'one worker, started for the query');
      const [queryPid, queryNices] = [...afterQuery][0]!;
      assert.ok(queryNices.every((n) => n === 0), `the query worker's threads: ${queryNices}`);

      // Indexing: a worker of its own (the query worker idles, but indexing starts its own while there is room).
      await ml.run(CLS_MODEL, clsFeeds(), 'background');
      const both = workerNices();
      assert.equal(both.size, 2, 'a second worker was started for indexing');
      const indexing = [...both].find(([pid]) => pid !== queryPid)![1];
      assert.ok(indexing.length > 1, `the indexing worker has several threads (Node's and onnxruntime's): ${indexing.length}`);
      assert.deepEqual([...new Set(indexing)], [10], `every thread of the indexing worker at nice 10: ${indexing}`);

      // A second query goes to the query worker again, not to the one indexing holds.
      await ml.run(CLS_MODEL, clsFeeds(), 'interactive');
      assert.equal(workerNices().size, 2, 'no third worker');
    } finally {
      await ml.pool.close();
    }
  });

  test('HEARTH_ML_NICE=0 (backgroundNice 0): indexing workers run at the server\'s priority', async () => {
    const ml = new MlRuntime({ modelsDir: SHARED_MODELS, shippedModelsDir: SHIPPED, dataDir: null, maxWorkers: 1, backgroundNice: 0 });
    try {
      await ml.run(CLS_MODEL, clsFeeds(), 'background');
      const workers = [...workerNices().values()];
      assert.equal(workers.length, 1);
      assert.deepEqual([...new Set(workers[0])], [0]);
    } finally {
      await ml.pool.close();
    }
  });
});

/**
 * Where an inference worker (inference-worker.ts) runs: a child process (the default) or a worker thread.
 * Both carry the same messages; the pool (inference-pool.ts) sees one shape.
 *
 * Why a child process: the memory must come back when indexing ends (issue 25). A thread that released its
 * sessions and ended still leaves onnxruntime in the server's process: its shared library stays mapped
 * (24 MB resident, Node never unloads an addon) and what its threads allocated stays in glibc's heap as
 * free but unreturned memory. Measured (the face pipeline on 12 corpus photos and OCR on 6, two workers,
 * MALLOC_ARENA_MAX=2 and MALLOC_MMAP_THRESHOLD_ as `npm start` runs the server; a one-off probe script run beside the pool
 * tests), the process 3 s after the release: 192–203 MB with threads (126 MB anonymous, 24 MB of
 * libonnxruntime.so) against 116–126 MB with child processes, where an ended child gives everything back.
 * The cost: a child's start (once per burst of work, like a model's load) and tensors copied through the
 * IPC channel instead of moved; the CPU of the same work was 13.57 s with threads and 13.54 s with
 * children (5.25 s in the parent, 8.29 s in the children), the same within the noise of a busy machine.
 * While busy the children hold what the threads held (the sessions and their arenas), in processes of
 * their own instead of the server's.
 *
 * A child is unref'd with its channel while idle, so an idle pool never keeps a process alive, and it
 * exits by itself when its parent goes (the channel closes). Under Electron (the desktop shell runs the
 * server in a utility process, where process.execPath is Electron) ELECTRON_RUN_AS_NODE makes the same
 * binary a plain node; node ignores the variable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { INFERENCE_WORKER_SOURCE } from './inference-worker.ts';

/** Child processes (default: their memory goes back to the OS when they end) or worker threads. */
export type Isolation = 'process' | 'thread';

export interface WorkerSettings {
  /** The path of onnxruntime-node's entry (require.resolve), loaded by the worker. */
  onnxruntime: string | null;
  intraOpThreads: number;
  /** The nice value a child process gives itself as it starts (0: the server's own; ignored by worker threads). */
  nice: number;
}

type RunnerEvent = 'message' | 'error' | 'exit';
type Listener = (...args: never[]) => void;

/** What the pool needs of a worker, whichever way it runs. */
export interface InferenceRunner {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  /** 'message' (an answer), 'error', 'exit' (its code); the listeners say what they take. */
  on(event: RunnerEvent, listener: Listener): void;
  once(event: RunnerEvent, listener: Listener): void;
  off(event: RunnerEvent, listener: Listener): void;
  ref(): void;
  unref(): void;
  /** Ends the worker; resolves when it has. */
  terminate(): Promise<unknown>;
}

export function startRunner(isolation: Isolation, settings: WorkerSettings): InferenceRunner {
  if (isolation === 'thread') {
    // No execArgv: the TypeScript loader the server may run under is not needed by this plain script.
    const worker = new Worker(INFERENCE_WORKER_SOURCE, { eval: true, execArgv: [], workerData: settings });
    const untyped = (l: Listener) => l as (...args: unknown[]) => void;
    return {
      postMessage: (m, transfer) => worker.postMessage(m, transfer),
      on: (event, l) => worker.on(event, untyped(l)),
      once: (event, l) => worker.once(event, untyped(l)),
      off: (event, l) => worker.off(event, untyped(l)),
      ref: () => worker.ref(),
      unref: () => worker.unref(),
      terminate: () => worker.terminate(),
    };
  }
  const env: NodeJS.ProcessEnv = { ...process.env, HEARTH_INFERENCE_WORKER: JSON.stringify(settings), ELECTRON_RUN_AS_NODE: '1' };
  // A loader or flags meant for the server (tsx's --import in development and tests) only slow the worker's start.
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ['-e', INFERENCE_WORKER_SOURCE], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Typed arrays cross as typed arrays (structured clone), not as JSON.
    serialization: 'advanced',
    // A group of its own: the Ctrl-C a terminal sends to the server's group must not kill a run under way
    // while the server drains (close() lets running work finish). It still ends with the server (see above).
    detached: true,
    env,
  });
  return new ChildRunner(child);
}

class ChildRunner implements InferenceRunner {
  private exited = false;

  constructor(private readonly child: ChildProcess) {
    child.once('exit', () => (this.exited = true));
  }

  postMessage(message: unknown): void {
    // The answer never comes if the channel is gone: the child's 'exit' (or 'error') tells the pool.
    if (this.child.connected) this.child.send(message as object, (e) => e && this.child.emit('error', e));
  }

  on(event: string, listener: Listener): void {
    this.child.on(event, listener as (...args: unknown[]) => void);
  }

  once(event: string, listener: Listener): void {
    this.child.once(event, listener as (...args: unknown[]) => void);
  }

  off(event: string, listener: Listener): void {
    this.child.off(event, listener as (...args: unknown[]) => void);
  }

  ref(): void {
    this.child.ref();
    this.child.channel?.ref();
  }

  unref(): void {
    this.child.unref();
    this.child.channel?.unref();
  }

  terminate(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }
}

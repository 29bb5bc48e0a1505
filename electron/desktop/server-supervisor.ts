/**
 * Keeps the Hearth server running beside the desktop app: starts it in a separate process, waits for its
 * `HEARTH_READY {json}` line, starts it again with exponential backoff when it dies, gives up after too
 * many fast crashes, and stops it cleanly on quit.
 *
 * The process is made by an injected `fork`: in the app, Electron's utilityProcess.fork (main.ts); in the
 * tests, node's child_process.fork of the same bundled entry (electron/dist/server-entry.cjs), which speaks
 * the same messages. The entry is electron/server-entry.ts: it turns the stop message into the server's
 * own SIGTERM shutdown (server/src/serve.ts), which closes the listener, lets running jobs finish their
 * current step for up to 3 s (jobs cut then are re-queued, not failed: platform/jobs/runner.ts stop()),
 * closes the catalog and exits. A message rather than a signal because Windows has no SIGTERM for
 * another process (utilityProcess.kill() there is TerminateProcess), and a hard kill after STOP_TIMEOUT
 * in case the server hangs.
 *
 * Backoff: the n-th crash in a row (a crash less than `stableMs` after the server became ready, or
 * before it was ready at all) waits baseMs·2^(n-1), at most maxMs; a server that ran `stableMs` or more
 * before crashing starts the count again. After `maxFastCrashes` crashes in a row it is not started
 * again: `onGiveUp` (the app shows an error dialog with the server's last output and quits).
 *
 * Native inference does not run in this process's server directly: the server's inference pool
 * (server/src/adapters/ml/inference-pool.ts) runs onnxruntime in child processes of its own, and a child
 * that dies fails only the inference it was running (`lost()` rejects that one job with InferenceError
 * and the pool starts a new worker for the next). So a crash in a model runtime does not reach this
 * supervisor: test/server/ml/pool-crash.test.ts kills a worker with a segmentation fault mid-run and sees
 * only that call fail, and the next get a new worker and the same answer.
 */
import { serverForkOptions, type ServerFolders } from '../server-launch.ts';

/** The message electron/server-entry.ts turns into the server's clean shutdown. */
export const STOP_MESSAGE = { type: 'hearth:stop' } as const;

/** A process's output stream (a Node Readable, or Electron's utility process stdout). */
export interface OutputStream {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
}

/** A running server process, as both Electron's UtilityProcess and a wrapped ChildProcess can give it. */
export interface ServerChild {
  readonly pid: number | undefined;
  readonly stdout: OutputStream | null;
  readonly stderr: OutputStream | null;
  postMessage(message: unknown): void;
  /** A hard stop (after the clean stop's timeout). */
  kill(): void;
  once(event: 'exit', listener: (code: number | null) => void): void;
}

export type ForkServer = (entry: string, options: { execArgv: string[]; env: Record<string, string | undefined> }) => ServerChild;

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** Up this long after ready, a crash no longer counts as a fast one. */
  stableMs: number;
  maxFastCrashes: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000, stableMs: 120_000, maxFastCrashes: 5 };

export interface SupervisorOptions {
  /** electron/dist/server-entry.cjs */
  entry: string;
  folders: ServerFolders;
  fork: ForkServer;
  /** The environment the server inherits (process.env in the app). */
  env: NodeJS.ProcessEnv;
  backoff?: Partial<BackoffPolicy>;
  readyTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** Each time a server process is ready (first start and every restart): its address. */
  onReady?: (url: string) => void;
  onCrash?: (info: { code: number | null; restartInMs: number; fastCrashes: number }) => void;
  onGiveUp?: (info: { code: number | null; fastCrashes: number; output: string }) => void;
  /** The server's output, passed on (the app writes it to its own stdout/stderr). */
  onOutput?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  now?: () => number;
}

const READY = /HEARTH_READY (\{.*\})/;
const OUTPUT_KEPT = 8_000;

export class ServerSupervisor {
  private child: ServerChild | null = null;
  private readyAt: number | null = null;
  private stopping = false;
  private gaveUp = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private fastCrashes = 0;
  private output = '';
  private firstReady: { resolve: (url: string) => void; reject: (e: Error) => void } | null = null;
  private readonly policy: BackoffPolicy;
  private readonly now: () => number;
  /** The server's address once it is ready (it may change across restarts only when the port is 0). */
  url: string | null = null;
  /** How many server processes were started (the first start counts). */
  starts = 0;

  constructor(private readonly opts: SupervisorOptions) {
    this.policy = { ...DEFAULT_BACKOFF, ...opts.backoff };
    this.now = opts.now ?? Date.now;
  }

  /** Starts the server; resolves with its address once ready, rejects if it gives up before that. */
  start(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.firstReady = { resolve, reject };
      this.spawn();
    });
  }

  /** The delay before the next start after the `n`-th fast crash in a row (n ≥ 1). */
  static delayFor(n: number, policy: BackoffPolicy): number {
    return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, n - 1));
  }

  private spawn(): void {
    this.restartTimer = null;
    if (this.stopping) return;
    const { execArgv, env } = serverForkOptions(this.opts.folders, this.opts.env);
    const child = this.opts.fork(this.opts.entry, { execArgv, env });
    this.child = child;
    this.readyAt = null;
    this.starts++;
    let buffer = '';
    const readyTimer = setTimeout(() => {
      // A server that never says it is ready is as good as crashed: stop it, and the exit handler counts it.
      if (this.child === child && this.readyAt === null) child.kill();
    }, this.opts.readyTimeoutMs ?? 120_000);
    const keep = (d: Buffer, stream: 'stdout' | 'stderr') => {
      this.output = (this.output + d.toString()).slice(-OUTPUT_KEPT);
      this.opts.onOutput?.(d, stream);
    };
    child.stdout?.on('data', (d: Buffer) => {
      keep(d, 'stdout');
      if (this.readyAt !== null) return;
      buffer += d.toString();
      const m = READY.exec(buffer);
      if (!m) return;
      clearTimeout(readyTimer);
      this.readyAt = this.now();
      this.url = (JSON.parse(m[1]!) as { url: string }).url;
      this.opts.onReady?.(this.url);
      this.firstReady?.resolve(this.url);
      this.firstReady = null;
    });
    child.stderr?.on('data', (d: Buffer) => keep(d, 'stderr'));
    child.once('exit', (code) => {
      clearTimeout(readyTimer);
      if (this.child === child) this.child = null;
      if (this.stopping) return;
      this.crashed(code);
    });
  }

  private crashed(code: number | null): void {
    const ranLong = this.readyAt !== null && this.now() - this.readyAt >= this.policy.stableMs;
    this.fastCrashes = ranLong ? 1 : this.fastCrashes + 1;
    if (this.fastCrashes > this.policy.maxFastCrashes) {
      this.gaveUp = true;
      this.opts.onGiveUp?.({ code, fastCrashes: this.fastCrashes - 1, output: this.output });
      this.firstReady?.reject(new Error(`the Hearth server stopped ${this.fastCrashes - 1} times in a row (last exit code ${code})`));
      this.firstReady = null;
      return;
    }
    const restartInMs = ServerSupervisor.delayFor(this.fastCrashes, this.policy);
    this.opts.onCrash?.({ code, restartInMs, fastCrashes: this.fastCrashes });
    this.restartTimer = setTimeout(() => this.spawn(), restartInMs);
  }

  get running(): boolean {
    return this.child !== null;
  }

  get givenUp(): boolean {
    return this.gaveUp;
  }

  /**
   * The clean stop: asks the server to shut down (its running jobs finish their step), waits for it to
   * exit, kills it after `stopTimeoutMs`. No restart follows. Resolves with how it ended.
   */
  async stop(): Promise<'stopped' | 'killed' | 'not-running'> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.firstReady?.reject(new Error('the app quit before the Hearth server was ready'));
    this.firstReady = null;
    const child = this.child;
    if (!child) return 'not-running';
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.postMessage(STOP_MESSAGE);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'killed'>((resolve) => {
      // The server's own hard exit comes 10 s after the stop (serve.ts); this is the last resort beyond it.
      timer = setTimeout(() => resolve('killed'), this.opts.stopTimeoutMs ?? 15_000);
    });
    const how = await Promise.race([exited.then(() => 'stopped' as const), timedOut]);
    clearTimeout(timer);
    if (how === 'killed') {
      child.kill();
      await exited;
    }
    return how;
  }
}

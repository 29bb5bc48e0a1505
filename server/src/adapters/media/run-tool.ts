/**
 * Run an external media program (ffmpeg, ffprobe) safely.
 *
 * - Arguments are always an array passed to spawn without a shell: file names from users (spaces, quotes,
 *   `$(...)`, leading dashes) can never be interpreted as commands.
 * - Every run has a timeout; on expiry the process gets SIGKILL (ffmpeg can hang on a damaged stream) and the
 *   caller gets a MediaToolError that says so.
 * - Only the tail of stderr is kept: ffmpeg writes megabytes of warnings on broken input, and the last lines
 *   are the ones that explain the failure.
 * - An AbortSignal lets a cancelled job stop its transcode.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { MediaToolError } from './errors.ts';

/**
 * A file path as ffmpeg/ffprobe must receive it: absolute and with the `file:` protocol. Without it, a file
 * named "concat:a|b", "http:..." or "-y" would be read as a protocol or an option instead of a file name.
 */
export function ffmpegPath(p: string): string {
  return `file:${path.resolve(p)}`;
}

export interface RunToolOptions {
  /** Name used in error messages: "ffprobe", "ffmpeg". */
  tool: string;
  /** What the run is for, used in error messages. */
  action: string;
  /** The media file concerned, used in error messages. */
  input: string;
  timeoutMs: number;
  /** Receives stdout as it arrives (progress parsing). When set, stdout is not collected. */
  onStdout?: (chunk: string) => void;
  signal?: AbortSignal;
  /** Cap on collected stdout (ffprobe JSON is small; anything bigger is a bug or an attack). */
  maxStdoutBytes?: number;
  /** Collect stdout as bytes (`bytes`): a frame piped out of ffmpeg, never written to disk. */
  binary?: boolean;
}

export interface RunToolResult {
  /** stdout as text ('' with `binary`). */
  stdout: string;
  /** stdout as bytes (with `binary`; empty otherwise). */
  bytes: Buffer;
  stderr: string;
}

const STDERR_TAIL_CHARS = 2000;

/** Keep the last `max` characters of a growing log without holding all of it. */
function appendTail(tail: string, chunk: string, max: number): string {
  const next = tail + chunk;
  return next.length > max * 2 ? next.slice(-max) : next;
}

/** Last meaningful lines of stderr for an error message. */
export function stderrTail(stderr: string, lines = 4): string {
  return stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-lines)
    .join(' | ')
    .slice(-STDERR_TAIL_CHARS);
}

export function runTool(bin: string, args: string[], opts: RunToolOptions): Promise<RunToolResult> {
  const maxStdout = opts.maxStdoutBytes ?? 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const fail = (detail: string, code: number | null, stderr: string) =>
      reject(new MediaToolError(opts.tool, opts.action, opts.input, detail, code, stderrTail(stderr)));

    if (opts.signal?.aborted) {
      fail('aborted before start', null, '');
      return;
    }
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false, windowsHide: true });
    let stdout = '';
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let settled = false;
    let killedFor: string | null = null;

    const kill = (why: string) => {
      if (killedFor) return;
      killedFor = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill(`timed out after ${opts.timeoutMs} ms`), opts.timeoutMs);
    const onAbort = () => kill('aborted');
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    if (!opts.binary) child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string | Buffer) => {
      if (opts.onStdout) {
        opts.onStdout(String(chunk));
        return;
      }
      stdoutBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (stdoutBytes > maxStdout) kill(`produced more than ${maxStdout} bytes of output`);
      else if (typeof chunk === 'string') stdout += chunk;
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: string) => {
      stderr = appendTail(stderr, chunk, STDERR_TAIL_CHARS * 4);
    });

    const finish = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      finish();
      fail(`could not start ${bin}: ${err.message}`, null, stderr);
    });
    child.on('close', (code, sig) => {
      if (settled) return;
      settled = true;
      finish();
      if (killedFor) fail(killedFor, code, stderr);
      else if (code !== 0) fail(`exited with ${code ?? sig}`, code, stderr);
      else resolve({ stdout, bytes: Buffer.concat(chunks), stderr });
    });
  });
}

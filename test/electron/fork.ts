/**
 * The tests' `fork` for the server supervisor: node's child_process.fork of the entry, as Electron's
 * utilityProcess.fork runs it in the app (same execArgv and environment, messages over the IPC channel
 * instead of the parent port: electron/server-entry.ts listens on both). Runs under the project's Node 22
 * (node_modules/.bin/node), which the server's native modules need.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import type { ForkServer } from '../../electron/desktop/server-supervisor.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const NODE = path.join(ROOT, 'node_modules/.bin/node');

/** Every child started, so a test can check they are all gone. */
export const forked: import('node:child_process').ChildProcess[] = [];

export const nodeFork: ForkServer = (entry, options) => {
  const env = Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined));
  const child = fork(entry, [], { execArgv: options.execArgv, env, execPath: NODE, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  forked.push(child);
  return {
    get pid() {
      return child.pid;
    },
    stdout: child.stdout,
    stderr: child.stderr,
    postMessage: (m) => {
      if (child.connected) child.send(m as never);
    },
    kill: () => void child.kill('SIGKILL'),
    once: (_event, listener) => void child.once('exit', (code) => listener(code)),
  };
};

export function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

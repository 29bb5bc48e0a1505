/**
 * The entry the desktop app's server process runs (electron/dist/server-entry.cjs): the server bundle
 * (electron/dist/server/main.js, the same as `npm start` runs), plus the one thing a utility process
 * needs that a terminal does not: a way for the app to ask for a clean stop on every platform.
 *
 * On the stop message (desktop/server-supervisor.ts STOP_MESSAGE) it raises the server's own SIGTERM
 * handler in-process (server/src/serve.ts: close the listener, let running jobs finish their step, close
 * the catalog, exit). Emitting the event rather than sending a signal: Windows cannot deliver SIGTERM,
 * and a utility process's kill() there ends the process at once. The message arrives on
 * `process.parentPort` in an Electron utility process and on `process.on('message')` in a
 * child_process.fork (the tests), so both are listened to.
 */
import { STOP_MESSAGE } from './desktop/server-supervisor.ts';

interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

function onMessage(message: unknown): void {
  if ((message as { type?: unknown } | null)?.type !== STOP_MESSAGE.type) return;
  process.emit('SIGTERM', 'SIGTERM');
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
parentPort?.on('message', (e) => onMessage(e.data));
if (process.send) process.on('message', onMessage);

// Resolved at run time beside this file (esbuild leaves it out of this bundle: build-electron.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the server bundle beside the built entry, not a module of this program
require('./server/main.js');

/**
 * Runs the Hearth server as an Electron utility process (a Node child that Electron manages), waits
 * for its `HEARTH_READY {json}` line, restarts it if it dies unexpectedly, and stops it on quit.
 * The server is the same one `npm start` runs: the window is just another browser of it.
 */
import { utilityProcess, type UtilityProcess } from 'electron';
import { serverForkOptions, type ServerFolders } from './server-launch.ts';

export interface ServerHandle {
  url: string;
  stop(): Promise<void>;
}

export interface ServerOptions extends ServerFolders {
  entry: string;
  onCrash?: (code: number) => void;
}

const READY_TIMEOUT_MS = 30_000;

export function startServer(opts: ServerOptions): Promise<ServerHandle> {
  return new Promise((resolve, reject) => {
    let child: UtilityProcess | null = null;
    let stopping = false;
    let resolved = false;

    const spawn = () => {
      // The same Node flags and allocator settings as `npm start` (server-launch.ts).
      const { execArgv, env } = serverForkOptions(opts, process.env);
      child = utilityProcess.fork(opts.entry, [], { stdio: 'pipe', serviceName: 'Hearth server', execArgv, env });
      let buffer = '';
      const timer = setTimeout(() => {
        if (!resolved) reject(new Error('the Hearth server did not start within 30 s'));
      }, READY_TIMEOUT_MS);
      child.stdout?.on('data', (d: Buffer) => {
        buffer += d.toString();
        process.stdout.write(d);
        const m = /HEARTH_READY (\{.*\})/.exec(buffer);
        if (m && !resolved) {
          resolved = true;
          clearTimeout(timer);
          const { url } = JSON.parse(m[1]!) as { url: string };
          resolve({
            url,
            stop: () =>
              new Promise<void>((done) => {
                stopping = true;
                if (!child) return done();
                child.once('exit', () => done());
                child.kill();
              }),
          });
        }
      });
      child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
      child.once('exit', (code: number) => {
        clearTimeout(timer);
        if (stopping) return;
        if (!resolved) return reject(new Error(`the Hearth server exited with code ${code} while starting`));
        opts.onCrash?.(code);
        // An unexpected exit after a good start: start again after a short pause.
        setTimeout(spawn, 1000);
      });
    };
    spawn();
  });
}

/**
 * The server once its configuration is known to be good (main.ts): the container (data folder, catalog backup +
 * migrations, keys) → app → listen (where HEARTH_HOST or the network setting says; the listener can move later,
 * see features/system). Loaded by main.ts after the configuration was read, so that a bad variable is reported
 * at once instead of after every module of the server was loaded (seconds on a small, busy machine).
 */
import { getRequestListener } from '@hono/node-server';
import type { AppConfig } from './config/env.ts';
import { createContainer } from './container.ts';
import { createApp } from './app.ts';
import { createLogger } from './platform/logger.ts';
import { HttpListener } from './platform/http/listener.ts';
import { warmLibraryCaches } from './warm-up.ts';
import { setScryptCost, TEST_SCRYPT_N } from './platform/crypto/passwords.ts';

export function serve(config: AppConfig): void {
  const log = createLogger(config.logLevel);
  if (config.testCheapPasswords) {
    setScryptCost(TEST_SCRYPT_N);
    log.warn('test setting: new password hashes use the lowest scrypt cost (HEARTH_TEST_CHEAP_PASSWORDS)');
  }
  let container;
  try {
    container = createContainer(config, log);
  } catch (e) {
    process.stderr.write(`Hearth cannot start: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const app = createApp(container);
  // No whole-request deadline (Node's default is 300 s): a large video over slow Wi-Fi may take longer
  // than that. Stalled bodies are cut by the uploads' own idle timeout (HEARTH_UPLOAD_IDLE_TIMEOUT_S), and
  // headers still have Node's headersTimeout, so a slow client cannot hold a socket without sending.
  const listener = new HttpListener(getRequestListener(app.fetch), config.port, { requestTimeout: 0 });
  let closing = false;
  container.network.start(listener).then(
    (listening) => {
      const port = listener.actualPort!;
      // This machine opens 127.0.0.1, unless HEARTH_HOST pins one address that is not a wildcard.
      const shownHost = config.hostFixed && !['0.0.0.0', '::'].includes(config.host) ? config.host : '127.0.0.1';
      const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}/`;
      log.info({ url, listening, data_dir: config.dataDir }, 'Hearth is listening');
      process.stdout.write(`\nHearth is running at ${url}\n  data folder: ${config.dataDir}\n`);
      if (container.network.reachableFromNetwork()) {
        const phones = container.network.phoneAddresses().map((a) => a.url);
        process.stdout.write(`  other devices on your network can open: ${phones.join(', ') || "this machine's address"}\n`);
      } else {
        process.stdout.write('  only this machine can open it (an administrator can let other devices in from the admin page)\n');
      }
      const code = container.setupCode.ensure(container.auth.users.count() > 0);
      if (code) {
        process.stdout.write(
          `  first run: open the address above on this machine to create the administrator account,\n` +
            `  or use this one-time setup code from another device: ${code}\n`,
        );
      }
      // Machine-readable line for the Electron shell and tests that start the server as a child.
      process.stdout.write(`HEARTH_READY ${JSON.stringify({ port, url })}\n`);
      void warmLibraryCaches(container, () => closing);
      // Models are checked now (hashed once, then remembered) rather than inside the first capabilities
      // request, and the administrator reads in the log what is missing or refused.
      void container.ml.catalog.capabilities().then(
        (caps) => {
          for (const [task, s] of Object.entries(caps)) {
            if (s.ready) log.info({ task }, 'ML task ready');
            else log[s.reason === 'failed' ? 'warn' : 'info']({ task, reason: s.reason, detail: s.detail }, 'ML task unavailable');
          }
        },
        (e: Error) => log.warn({ err: e.message }, 'models could not be checked'),
      );
    },
    (err: NodeJS.ErrnoException) => {
      process.stderr.write(
        err.code === 'EADDRINUSE'
          ? `Hearth cannot start: port ${config.port} is already in use. Set HEARTH_PORT to another port.\n`
          : `Hearth cannot start: ${err.message}\n`,
      );
      process.exit(1);
    },
  );
  const shutdown = (signal: string) => {
    closing = true;
    log.info({ signal }, 'shutting down');
    void listener.close().then(async () => {
      await container.close(3000);
      process.exit(0);
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}


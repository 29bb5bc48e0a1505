/**
 * Entry point: config → container (data folder, catalog backup + migrations, keys) → app → listen.
 * `npm start` runs this after building the UI. Exits with a readable message on bad configuration.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from './config/env.ts';
import { createContainer } from './container.ts';
import { createApp } from './app.ts';
import { createLogger } from './platform/logger.ts';
import { warmLibraryCaches } from './warm-up.ts';

function start(): void {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
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
  const serverOptions = { requestTimeout: 0 };
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host, serverOptions }, (info: AddressInfo) => {
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${info.port}/`;
    log.info({ url, data_dir: config.dataDir }, 'Hearth is listening');
    process.stdout.write(`\nHearth is running at ${url}\n  data folder: ${config.dataDir}\n`);
    if (config.host === '0.0.0.0') process.stdout.write('  reachable from other devices on your network at this machine\'s address\n');
    const code = container.setupCode.ensure(container.auth.users.count() > 0);
    if (code) {
      process.stdout.write(
        `  first run: open the address above on this machine to create the administrator account,\n` +
          `  or use this one-time setup code from another device: ${code}\n`,
      );
    }
    // Machine-readable line for the Electron shell and tests that start the server as a child.
    process.stdout.write(`HEARTH_READY ${JSON.stringify({ port: info.port, url })}\n`);
    void warmLibraryCaches(container, () => closing);
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    process.stderr.write(
      err.code === 'EADDRINUSE'
        ? `Hearth cannot start: port ${config.port} is already in use. Set HEARTH_PORT to another port.\n`
        : `Hearth cannot start: ${err.message}\n`,
    );
    process.exit(1);
  });
  let closing = false;
  const shutdown = (signal: string) => {
    closing = true;
    log.info({ signal }, 'shutting down');
    server.close(async () => {
      await container.close(3000);
      process.exit(0);
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

start();

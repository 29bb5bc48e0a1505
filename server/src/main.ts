/**
 * Entry point: the configuration, then the server (serve.ts). `npm start` runs this after building the UI.
 * Exits with a readable message on bad configuration, before the rest of the server is loaded.
 */
import { ConfigError, loadConfig, type AppConfig } from './config/env.ts';

function readConfig(): AppConfig {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

const config = readConfig();
void import('./serve.ts').then((server) => server.serve(config));

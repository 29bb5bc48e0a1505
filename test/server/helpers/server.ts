/**
 * Starts the real server in-process on a fresh temporary data folder (real SQLite file, real HTTP on
 * 127.0.0.1, random port) and gives tests a small HTTP client with a cookie jar that checks every
 * JSON answer against the served OpenAPI document (response-schemas.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { loadConfig, type AppConfig } from '../../../server/src/config/env.ts';
import { createContainer, type Container } from '../../../server/src/container.ts';
import { createApp } from '../../../server/src/app.ts';
import { createLogger } from '../../../server/src/platform/logger.ts';
import { HttpListener } from '../../../server/src/platform/http/listener.ts';
import { setScryptCost, TEST_SCRYPT_N } from '../../../server/src/platform/crypto/passwords.ts';
import { responseSchemasFor } from './response-schemas.ts';
import type { TemplateManifest } from '../../template/build.ts';
import { login } from './api.ts';
import type { Recipe } from '../../template/recipes.ts';

export interface TestServer {
  url: string;
  dataDir: string;
  container: Container;
  config: AppConfig;
  /** Started from a template (`startServer({ template })`): its users (ids, signed-in tokens) and asset ids. */
  template: TemplateManifest | null;
  /** Stops the server; keeps the data folder unless `removeData`. */
  stop(opts?: { removeData?: boolean }): Promise<void>;
}

export function tempDataDir(prefix = 'hearth-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * `template`: the data folder starts as a copy of that recipe's template (test/template/build.ts): its
 * household signed up and its corpus files ingested by the real pipeline once per run, instead of by
 * this test file. For tests whose subject is not ingest. `logTo`: the server's log lines go there
 * instead of stdout (a test that reads the log).
 */
export async function startServer(
  opts: { dataDir?: string; env?: Record<string, string>; template?: Recipe; logTo?: { write(line: string): void } } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  let template: TemplateManifest | null = null;
  if (opts.template) {
    // Imported when asked: build.ts imports this file to build a template (and runs as a script).
    const { copyTemplate, ensureTemplate } = await import('../../template/build.ts');
    const built = await ensureTemplate(opts.template);
    fs.rmSync(dataDir, { recursive: true, force: true });
    copyTemplate(built.dir, built.manifest, dataDir);
    template = built.manifest;
  }
  const config = loadConfig({
    HEARTH_DATA_DIR: dataDir,
    HEARTH_PORT: '0',
    HEARTH_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // ML indexing off unless the test names a models folder (a test about ML) or sets it: OCR is installed from its
    // npm package, and running it on every photo every test uploads would cost the suite minutes of CPU.
    HEARTH_ML_DEFAULT_ON: opts.env?.HEARTH_MODELS_DIR ? 'true' : 'false',
    // Cheap password hashes when the runner asks (scripts/test.ts sets both): like main.ts, refused outside tests.
    NODE_ENV: process.env.NODE_ENV,
    HEARTH_TEST_CHEAP_PASSWORDS: process.env.HEARTH_TEST_CHEAP_PASSWORDS,
    ...opts.env,
  });
  if (config.testCheapPasswords) setScryptCost(TEST_SCRYPT_N);
  const container = createContainer(config, createLogger(config.logLevel, opts.logTo));
  const app = createApp(container);
  // Listens like main.ts: where HEARTH_HOST or the network setting says (127.0.0.1 on a fresh folder),
  // so the listener can move while a test runs. HEARTH_PORT from `env` is honoured (a restart on the same port).
  const listener = new HttpListener(getRequestListener(app.fetch), config.port);
  await container.network.start(listener);
  const port = listener.actualPort!;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    container,
    config,
    template,
    async stop({ removeData = false } = {}) {
      await listener.close({ force: true });
      await container.close();
      if (removeData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A client signed in (with the helpers' password, as registerAdmin and addMember made the accounts) as
 * `user` of the server's template: alice, or a member the recipe names.
 */
export async function templateClient(srv: TestServer, user: string, variant: 'A' | 'B' = 'A'): Promise<Client> {
  if (!srv.template?.users[user]) throw new Error(`the server's template has no user ${user}`);
  const c = new Client(srv.url, variant);
  await login(c, user);
  return c;
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A tiny fetch wrapper that remembers cookies like a browser (per client instance). */
export class Client {
  readonly cookies = new Map<string, string>();
  token: string | null = null;

  constructor(
    readonly base: string,
    readonly variant: 'A' | 'B' = 'A',
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  async req<T = any>(
    method: string,
    p: string,
    opts: { json?: unknown; body?: string | Buffer; headers?: Record<string, string>; auth?: boolean } = {},
  ): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { 'x-api-variant': this.variant, ...this.extraHeaders, ...opts.headers };
    if (opts.auth !== false && this.token && !headers.authorization) headers.authorization = `Bearer ${this.token}`;
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | Buffer | undefined = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetchOnce(`${this.base}${p}`, { method, headers, body });
    for (const sc of res.headers.getSetCookie()) {
      const [pair] = sc.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (/max-age=0/i.test(sc) || value === '') this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('json') && text) {
      parsed = JSON.parse(text);
      // Every JSON answer must be what the served document declares (helpers/response-schemas.ts).
      const schemas = await responseSchemasFor(this.base);
      schemas.check({ method, path: p.split('?')[0]!, status: res.status, contentType: type, body: parsed, variant: headers['x-api-variant'] ?? 'A' });
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(p: string, opts?: Parameters<Client['req']>[2]) {
    return this.req<T>('GET', p, opts);
  }
  post<T = any>(p: string, json?: unknown, opts: Parameters<Client['req']>[2] = {}) {
    return this.req<T>('POST', p, { ...opts, json });
  }
  put<T = any>(p: string, json?: unknown, opts: Parameters<Client['req']>[2] = {}) {
    return this.req<T>('PUT', p, { ...opts, json });
  }
  patch<T = any>(p: string, json?: unknown, opts: Parameters<Client['req']>[2] = {}) {
    return this.req<T>('PATCH', p, { ...opts, json });
  }
}

/**
 * fetch, with the one retry a browser makes: a GET or HEAD sent on a kept-alive connection that the
 * server closed at that same moment (its keep-alive timer fired while a test held the event loop,
 * e.g. writing thousands of rows) fails with ECONNRESET before any answer; it is sent again once.
 * Nothing else is retried, so a server that really drops requests still fails the test.
 */
async function fetchOnce(url: string, init: RequestInit & { method: string }): Promise<Response> {
  // Let timers and socket events that came due while the test held the event loop run first (the
  // in-process server closing an idle kept-alive connection, the client noticing it), so the request
  // is not written into a connection closed in the same tick. A browser never sends in that tick.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
  try {
    return await fetch(url, init);
  } catch (e) {
    const code = ((e as { cause?: { code?: string } }).cause ?? {}).code;
    const idempotent = init.method === 'GET' || init.method === 'HEAD';
    if (!idempotent || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')) throw e;
    return fetch(url, init);
  }
}

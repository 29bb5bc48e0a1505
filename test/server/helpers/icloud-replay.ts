/**
 * Apple's iCloud services replayed on loopback from the recorded exchanges in ../shared/reference/icloud
 * (icloudpd's VCR cassettes, MIT): one HTTP server per Apple host the cassette names, each answering the
 * recorded status, headers and body of the first not-yet-played interaction with the same method, host,
 * path and query (VCR's default matching: never the body, so our own SRP values need not match).
 *
 * Answers are rewritten as a real client on loopback needs them: Apple's host names in bodies and headers
 * become the loopback addresses, and Set-Cookie loses its Domain (the cookies then belong to 127.0.0.1).
 * Content-host paths given in `media` are served with real files (with Range), optionally cutting the
 * first answer short to exercise a resume. Everything received is recorded for the tests to inspect.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { ICloudEndpoints } from '../../../server/src/adapters/cloud/icloud/index.ts';

export const CASSETTES = path.resolve(import.meta.dirname, '../../../../shared/reference/icloud');

export interface Interaction {
  request: { method: string; uri: string; body?: string | null };
  response: { status: { code: number; message?: string }; headers: Record<string, string[] | string>; body: { string: string | null } };
}

export interface Received {
  method: string;
  /** The Apple host the request was meant for. */
  host: string;
  path: string;
  query: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Index of the interaction played, 'media' for a served file, or null when nothing matched (VCR would have failed). */
  played: number | 'media' | null;
}

export interface MediaFile {
  file: string;
  /** Serve only this many bytes of the first request, then drop the connection. */
  cutFirstAfter?: number;
}

/** js-yaml reads every cassette (the `yaml` package rejects one); typed here by what is used of it. */
interface JsYaml {
  Type: new (tag: string, opts: { kind: 'scalar'; resolve?: () => boolean; construct: (data: string | null) => string }) => unknown;
  DEFAULT_SCHEMA: { extend(types: unknown[]): unknown };
  load(text: string, opts: { schema: unknown }): unknown;
}
const jsyaml = createRequire(import.meta.url)('js-yaml') as JsYaml;
// `!!python/unicode 'text'` is just a string; `!!binary` bodies (some empty) are kept as their bytes' text.
const SCHEMA = jsyaml.DEFAULT_SCHEMA.extend([
  new jsyaml.Type('tag:yaml.org,2002:python/unicode', { kind: 'scalar', construct: (d) => d ?? '' }),
  new jsyaml.Type('tag:yaml.org,2002:binary', { kind: 'scalar', resolve: () => true, construct: (d) => Buffer.from((d ?? '').replace(/\s+/g, ''), 'base64').toString('latin1') }),
]);

export function loadCassette(name: string): Interaction[] {
  const doc = jsyaml.load(fs.readFileSync(path.join(CASSETTES, `${name}.yml`), 'utf8'), { schema: SCHEMA }) as { interactions: Interaction[] };
  return doc.interactions;
}

/** An interaction the tests add (an answer the cassettes do not hold), with a JSON body. */
export function jsonInteraction(method: string, uri: string, status: number, body: unknown, headers: Record<string, string[]> = {}): Interaction {
  return {
    request: { method, uri, body: null },
    response: { status: { code: status }, headers: { 'Content-Type': ['application/json; charset=UTF-8'], ...headers }, body: { string: JSON.stringify(body) } },
  };
}

/** The parsed JSON body of a recorded answer. */
export function bodyOf<T = Record<string, unknown>>(i: Interaction): T {
  return JSON.parse(i.response.body.string ?? 'null') as T;
}

/** A copy of the interaction with its JSON body changed by `edit`. */
export function withBody<T>(i: Interaction, edit: (body: T) => T | void): Interaction {
  const body = bodyOf<T>(i);
  const changed = edit(body) ?? body;
  return { ...i, response: { ...i.response, body: { string: JSON.stringify(changed) } } };
}

/** Hosts every replay serves, besides those the cassette names (a listing refers to them in bodies). */
const STANDARD_HOSTS = ['idmsa.apple.com', 'setup.icloud.com', 'p61-ckdatabasews.icloud.com', 'cvws.icloud-content.com'];

function queryKey(search: string): string {
  return [...new URLSearchParams(search)].map(([k, v]) => `${k}=${v}`).sort().join('&');
}

function samePath(a: string, b: string): boolean {
  const norm = (p: string) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  };
  return norm(a) === norm(b);
}

export class ICloudReplay {
  readonly received: Received[] = [];
  private readonly played = new Set<number>();
  private readonly servers = new Map<string, { server: http.Server; base: string }>();

  private constructor(
    private interactions: Interaction[],
    private media: Record<string, MediaFile>,
  ) {}

  static async start(interactions: Interaction[], media: Record<string, MediaFile> = {}): Promise<ICloudReplay> {
    const replay = new ICloudReplay(interactions, media);
    const hosts = new Set(STANDARD_HOSTS);
    for (const i of interactions) hosts.add(new URL(i.request.uri).hostname);
    for (const host of hosts) {
      const server = http.createServer((req, res) => replay.answer(host, req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      replay.servers.set(host, { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    }
    return replay;
  }

  /**
   * Plays `interactions` (and serves `media`) from now on, forgetting what was played and received: one replay, so
   * one set of addresses, for a server started once with them and taken through several scenarios.
   */
  reset(interactions: Interaction[], media: Record<string, MediaFile> = {}): void {
    this.interactions = interactions;
    this.media = media;
    this.played.clear();
    this.received.length = 0;
  }

  /** The loopback address standing in for an Apple host. */
  base(host: string): string {
    const s = this.servers.get(host);
    if (!s) throw new Error(`the replay serves no ${host}`);
    return s.base;
  }

  /** The provider's endpoints, pointed at this replay. */
  endpoints(): Partial<ICloudEndpoints> {
    return {
      auth: { com: `${this.base('idmsa.apple.com')}/appleauth/auth`, cn: `${this.base('idmsa.apple.com')}/appleauth/auth` },
      setup: { com: `${this.base('setup.icloud.com')}/setup/ws/1`, cn: `${this.base('setup.icloud.com')}/setup/ws/1` },
      contentHosts: [new URL(this.base('cvws.icloud-content.com')).host],
    };
  }

  /** What a recorded Apple URL becomes on loopback. */
  rewrite(text: string): string {
    return text.replace(/https:\/\/([a-z0-9.-]+\.(?:apple\.com|icloud\.com|icloud-content\.com)(?:\.cn)?)(?::443)?/gi, (whole, host: string) => this.servers.get(host.toLowerCase())?.base ?? whole);
  }

  /** Requests nothing recorded answered. */
  unmatched(): Received[] {
    return this.received.filter((r) => r.played === null);
  }

  /** Requests to one path (e.g. '/appleauth/auth/signin/init'). */
  to(pathname: string): Received[] {
    return this.received.filter((r) => r.path === pathname);
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.servers.values()].map(({ server }) => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      }),
    );
  }

  private answer(host: string, req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://replay');
      const entry: Received = { method: req.method ?? 'GET', host, path: url.pathname, query: url.search, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), played: null };
      this.received.push(entry);
      const media = req.method === 'GET' ? Object.entries(this.media).find(([p]) => samePath(p, url.pathname))?.[1] : undefined;
      if (media) {
        entry.played = 'media';
        return this.serveMedia(media, req, res);
      }
      const index = this.interactions.findIndex((i, n) => {
        if (this.played.has(n) || i.request.method !== entry.method) return false;
        const u = new URL(i.request.uri);
        return u.hostname === host && samePath(u.pathname, url.pathname) && queryKey(u.search) === queryKey(url.search);
      });
      if (index < 0) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ replay: 'no recorded interaction matches' }));
        return;
      }
      this.played.add(index);
      entry.played = index;
      const r = this.interactions[index]!.response;
      const headers: [string, string][] = [];
      for (const [name, value] of Object.entries(r.headers)) {
        if (/^(content-length|transfer-encoding|content-encoding|connection)$/i.test(name)) continue;
        for (const v of Array.isArray(value) ? value : [value]) {
          headers.push([name, /^set-cookie$/i.test(name) ? v.replace(/;\s*Domain=[^;]*/i, '') : this.rewrite(v)]);
        }
      }
      const body = Buffer.from(this.rewrite(r.body.string ?? ''), 'utf8');
      res.writeHead(r.status.code, [...headers.flat(), 'Content-Length', String(body.length)]);
      res.end(body);
    });
  }

  private serveMedia(media: MediaFile, req: http.IncomingMessage, res: http.ServerResponse): void {
    const size = fs.statSync(media.file).size;
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    if (start >= size) {
      res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    const headers = { 'Content-Type': 'application/octet-stream', 'Content-Length': String(size - start), ...(m ? { 'Content-Range': `bytes ${start}-${size - 1}/${size}` } : {}) };
    res.writeHead(m ? 206 : 200, headers);
    const cut = media.cutFirstAfter;
    if (cut !== undefined) {
      delete media.cutFirstAfter;
      res.write(fs.readFileSync(media.file).subarray(start, start + cut), () => res.destroy());
      return;
    }
    fs.createReadStream(media.file, { start }).pipe(res);
  }
}

/**
 * A real HTTP server on loopback that answers like the iNaturalist API v1 (`/v1/taxa?q=…&locale=…` and
 * `/v1/taxa/<id>?locale=…`) with responses recorded into ./fixtures, counting the requests it gets. Its `mode`
 * makes it misbehave the ways a remote service does: an HTTP 500, a body that is not JSON, JSON that is not a
 * page of taxa, a body of megabytes, no answer at all, or headers and then silence half-way through the body. `stop()` closes the
 * port (the machine is then "offline" for the server pointed at it); `start()` opens the same port again.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

export type FakeMode = 'ok' | 'error500' | 'not-json' | 'not-taxa' | 'huge' | 'hang' | 'hang-body';

export interface SeenRequest {
  path: string;
  q: string | null;
  locale: string | null;
  userAgent: string | undefined;
}

/** The fixture file for a search: `taxa.<q as a slug>.<locale>.json`; a taxon: `taxon.<id>.<locale>.json`. */
function fixtureFor(url: URL): string | null {
  const locale = url.searchParams.get('locale') ?? 'en';
  const byId = /^\/v1\/taxa\/(\d+)$/.exec(url.pathname);
  if (byId) return path.join(FIXTURES, `taxon.${byId[1]}.${locale}.json`);
  if (url.pathname !== '/v1/taxa') return null;
  const slug = (url.searchParams.get('q') ?? '').trim().toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return path.join(FIXTURES, `taxa.${slug}.${locale}.json`);
}

const EMPTY_PAGE = JSON.stringify({ total_results: 0, page: 1, per_page: 10, results: [] });

export class FakeINaturalist {
  mode: FakeMode = 'ok';
  readonly seen: SeenRequest[] = [];
  private server: http.Server | null = null;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Requests for taxa whose `q` was `q` (any locale). */
  searchesFor(q: string): SeenRequest[] {
    return this.seen.filter((r) => r.q === q);
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port and every connection (also the hanging ones). */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    this.seen.push({ path: url.pathname, q: url.searchParams.get('q'), locale: url.searchParams.get('locale'), userAgent: req.headers['user-agent'] });
    switch (this.mode) {
      case 'hang':
        return; // never answers; stop() cuts it
      case 'hang-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"total_results": 1, "page": 1, "results": [');
        return; // the rest never comes
      case 'error500':
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'Internal Server Error', status: 500 }));
        return;
      case 'not-json':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>');
        return;
      case 'not-taxa':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'rate limited', results: 'none' }));
        return;
      case 'huge':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ results: [], padding: 'x'.repeat(3 * 1024 * 1024) }));
        return;
      case 'ok': {
        const file = fixtureFor(url);
        if (!file) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'Not found', status: 404 }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(fs.existsSync(file) ? fs.readFileSync(file) : EMPTY_PAGE);
      }
    }
  }
}

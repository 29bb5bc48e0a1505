/**
 * A real HTTP server on loopback serving model files (copies of ../shared/models, or files a test made)
 * the way a mirror does (HEARTH_MODELS_BASE_URL), with Range support, and the faults downloads must
 * survive: a connection cut mid-body, a stalled one, a server that ignores ranges, and a download held
 * half-way until the test lets it go (to look at the progress while it is under way).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SHARED_MODELS } from './models.ts';

export interface Served {
  /** The base URL: files are at `<url>/<registry path>`. */
  url: string;
  /** Every request: path and Range header. */
  requests: { path: string; range: string | null }[];
  /** Registry-path-keyed files it serves (`models/<path>`); tests may change them between requests. */
  files: Map<string, Buffer>;
  /** Lets the held downloads of `rel` (a served path) finish. */
  release(rel: string): void;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Files whose first `cutTimes` responses stop after half of what they promised. */
  cut?: Set<string>;
  cutTimes?: number;
  /** With `cut`: the socket stays open and sends nothing more (stalled) instead of closing. */
  stall?: boolean;
  ignoreRange?: boolean;
  /** Files whose responses send half, then wait for `release(path)` before sending the rest. */
  hold?: Set<string>;
}

/** Serves `files` (served path `models/<registry path>` → bytes). */
export async function serveModels(files: Map<string, Buffer>, opts: ServeOptions = {}): Promise<Served> {
  const requests: Served['requests'] = [];
  const cuts = new Map<string, number>();
  const gates = new Map<string, { open: Promise<void>; release: () => void }>();
  const gate = (rel: string) => {
    let g = gates.get(rel);
    if (!g) {
      let release!: () => void;
      const open = new Promise<void>((r) => (release = r));
      g = { open, release };
      gates.set(rel, g);
    }
    return g;
  };
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1));
    requests.push({ path: rel, range: req.headers.range ?? null });
    const body = files.get(rel);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    let start = 0;
    const m = opts.ignoreRange ? null : /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m) {
      start = Number(m[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
    } else res.writeHead(200, { 'content-length': body.length });
    const rest = body.subarray(start);
    const half = Math.floor(rest.length / 2);
    const done = cuts.get(rel) ?? 0;
    if (opts.cut?.has(rel) && done < (opts.cutTimes ?? 1)) {
      cuts.set(rel, done + 1);
      // Cut (the socket closes mid-body), or stalled (it stays open and sends nothing more).
      res.write(rest.subarray(0, half), () => (opts.stall ? undefined : res.socket?.destroy()));
      return;
    }
    if (opts.hold?.has(rel)) {
      res.write(rest.subarray(0, half));
      void gate(rel).open.then(() => res.end(rest.subarray(half)));
      return;
    }
    res.end(rest);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/models`,
    requests,
    files,
    release: (rel) => gate(rel).release(),
    close: () =>
      new Promise((resolve) => {
        for (const g of gates.values()) g.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Copies of files of ../shared/models, keyed as served (`models/<registry path>`). */
export function copies(rels: string[]): Map<string, Buffer> {
  return new Map(rels.map((rel) => [`models/${rel}`, fs.readFileSync(path.join(SHARED_MODELS, rel))]));
}

/**
 * Helpers for the upload tests: corpus files copied to a temp folder, multipart bodies built by hand
 * (streamed from generators for big files), a raw node:http client that can break off mid-body, and
 * an SSE reader.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { addMember, registerAdmin } from '../helpers/api.ts';

import { CORPUS } from '../media/corpus.ts';

export { CORPUS };
export const U = '/api/v1/uploads';

/** Copies corpus files (relative paths) into a fresh temp folder; returns their new paths by relative path. */
export function copyCorpus(rels: string[]): { dir: string; file: (rel: string) => string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-upload-src-'));
  for (const rel of rels) {
    const dest = path.join(dir, rel);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(path.join(CORPUS, rel), dest);
  }
  return { dir, file: (rel) => path.join(dir, rel) };
}

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; data: Buffer | (() => AsyncIterable<Buffer>); contentType?: string; rawDisposition?: string };

const BOUNDARY = `----hearth-test-${crypto.randomBytes(8).toString('hex')}`;
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

function partHeader(p: Part): Buffer {
  if ('value' in p) return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`);
  const disp = p.rawDisposition ?? `form-data; name="${p.name}"; filename="${p.filename.replace(/"/g, '%22')}"`;
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disp}\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`);
}

/** The multipart body as a stream of buffers (files from generators are never held whole). */
export async function* multipartStream(parts: Part[]): AsyncGenerator<Buffer> {
  for (const p of parts) {
    yield partHeader(p);
    if ('value' in p) yield Buffer.from(p.value);
    else if (Buffer.isBuffer(p.data)) yield p.data;
    else yield* p.data();
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${BOUNDARY}--\r\n`);
}

export async function multipartBuffer(parts: Part[]): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const b of multipartStream(parts)) out.push(b);
  return Buffer.concat(out);
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  text: string;
}

/**
 * POSTs a multipart body over node:http, streaming it. `abortAfterBytes`: the connection is cut
 * after that many body bytes (a client that goes away mid-upload); resolves with status 0 then.
 */
export function postMultipart(
  srv: TestServer | string,
  p: string,
  token: string | null,
  parts: Part[],
  opts: { headers?: Record<string, string>; abortAfterBytes?: number; contentType?: string } = {},
): Promise<Answer> {
  const base = typeof srv === 'string' ? srv : srv.url;
  const url = new URL(`${base}${p}`);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': opts.contentType ?? MULTIPART_TYPE, ...opts.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.request({ method: 'POST', hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers });
    let aborted = false;
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        if ((res.headers['content-type'] ?? '').includes('json') && text) body = JSON.parse(text);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
      res.on('error', reject);
    });
    req.on('error', (e) => (aborted ? resolve({ status: 0, headers: {}, body: null, text: String(e) }) : reject(e)));
    (async () => {
      let sent = 0;
      for await (const b of multipartStream(parts)) {
        if (opts.abortAfterBytes !== undefined && sent + b.length > opts.abortAfterBytes) {
          const keep = opts.abortAfterBytes - sent;
          if (keep > 0) await write(req, b.subarray(0, keep));
          await new Promise((r) => setTimeout(r, 100));
          aborted = true;
          req.destroy();
          resolve({ status: 0, headers: {}, body: null, text: 'aborted by the test' });
          return;
        }
        sent += b.length;
        if (!(await write(req, b))) return;
      }
      req.end();
    })().catch((e) => (aborted ? undefined : reject(e)));
  });
}

function write(req: http.ClientRequest, b: Buffer): Promise<boolean> {
  if (req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    if (req.write(b)) resolve(true);
    else {
      const done = () => {
        req.off('drain', done);
        req.off('close', done);
        resolve(!req.destroyed);
      };
      req.once('drain', done);
      req.once('close', done);
    }
  });
}

/** Single upload of a file from disk. */
export function uploadFile(srv: TestServer, token: string, file: string, opts: { name?: string; hash?: string; repositoryId?: string } = {}) {
  const parts: Part[] = [];
  if (opts.repositoryId) parts.push({ name: 'repository_id', value: opts.repositoryId });
  parts.push({ name: 'file', filename: opts.name ?? path.basename(file), data: fs.readFileSync(file) });
  return postMultipart(srv, `${U}/files`, token, parts, { headers: opts.hash ? { 'x-content-hash': opts.hash } : {} });
}

/** Every file under `dir` (relative paths with '/'), skipping nothing. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else out.push(r);
    }
  };
  walk(dir, '');
  return out.sort();
}

/** Repository files outside `.hearth/` and the marker: what a user sees. */
export function repoMediaFiles(repoPath: string): string[] {
  return listFiles(repoPath).filter((f) => !f.startsWith('.hearth/') && f !== '.hearth-repo');
}

/** Files in the repository's staging folder. */
export function stagingFiles(repoPath: string): string[] {
  return listFiles(path.join(repoPath, '.hearth', 'staging'));
}

export async function filesWithHash(repoPath: string, hash: string): Promise<string[]> {
  const out: string[] = [];
  for (const f of repoMediaFiles(repoPath)) if ((await hashFile(path.join(repoPath, f))) === hash) out.push(f);
  return out;
}

export function uploadFolderNow(): string {
  const d = new Date();
  return `uploads/${d.getFullYear()}/${String(d.getMonth() + 1).padStart(2, '0')}`;
}

/** Waits until `fn` returns a truthy value (polling), or fails after `ms`. */
export async function eventually<T>(fn: () => T | Promise<T>, ms = 30_000, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Reads a server-sent event stream until it ends (or `stopWhen` says so, or `ms` passes). */
export async function readSse(
  url: string,
  headers: Record<string, string>,
  opts: { ms?: number; onEvent?: (e: SseEvent) => void | Promise<void>; stopWhen?: (e: SseEvent) => boolean } = {},
): Promise<{ status: number; contentType: string; events: SseEvent[]; text: string }> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), opts.ms ?? 30_000);
  const res = await fetch(url, { headers, signal: ac.signal });
  const contentType = res.headers.get('content-type') ?? '';
  const events: SseEvent[] = [];
  if (!contentType.startsWith('text/event-stream')) {
    clearTimeout(timer);
    return { status: res.status, contentType, events, text: await res.text() };
  }
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        }
        const e = { event, data: data.length ? JSON.parse(data.join('\n')) : null };
        events.push(e);
        await opts.onEvent?.(e);
        if (opts.stopWhen?.(e)) {
          ac.abort();
          return { status: res.status, contentType, events, text: '' };
        }
      }
    }
  } catch (e) {
    if (!ac.signal.aborted) throw e;
  } finally {
    clearTimeout(timer);
  }
  return { status: res.status, contentType, events, text: '' };
}

/** A fresh server with alice (admin) and bob (member), and copies of the corpus files to upload. */
export async function startUploadServer(rels: string[]) {
  const src = copyCorpus(rels);
  const srv = await startServer();
  const alice = new Client(srv.url);
  await registerAdmin(alice);
  const bob = new Client(srv.url);
  await addMember(alice, bob, 'bob');
  return { src, srv, alice, bob, repoPath: srv.container.repositories.primary()!.path };
}

export async function stopUploadServer(srv: TestServer, src: { dir: string }): Promise<void> {
  await srv.stop({ removeData: true });
  fs.rmSync(src.dir, { recursive: true, force: true });
}

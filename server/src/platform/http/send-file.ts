/**
 * Sends a file from disk as a stream, with HTTP Range support (single ranges: what <video> and
 * <audio> ask for when seeking), ETag/If-None-Match, and a private cache policy. Errors are thrown as
 * domain errors, so they become problem+json like everywhere else.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { DomainError, NotFound } from './errors.ts';
import { displayFileName } from './display-names.ts';

export interface SendFileOptions {
  contentType: string;
  /** A stable identity of the bytes (e.g. content hash + variant) for ETag. */
  etag: string;
  /** `inline` (default) or `attachment` with this file name. */
  downloadName?: string;
  disposition?: 'inline' | 'attachment';
  maxAgeSeconds?: number;
}

/** The header for a download named `raw` (neutralised for display: no bidirectional controls). */
export function contentDisposition(kind: 'inline' | 'attachment', raw: string): string {
  const name = displayFileName(raw);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function sendFile(c: Context, file: string, opts: SendFileOptions): Response {
  let size: number;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    throw new NotFound('The file is not available.', 'file_not_found');
  }
  const etag = `"${opts.etag}"`;
  const headers: Record<string, string> = {
    'content-type': opts.contentType,
    'accept-ranges': 'bytes',
    etag,
    'cache-control': `private, max-age=${opts.maxAgeSeconds ?? 3600}`,
  };
  if (opts.downloadName) headers['content-disposition'] = contentDisposition(opts.disposition ?? 'inline', opts.downloadName);
  if (c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers });

  const range = c.req.header('range');
  let start = 0;
  let end = size - 1;
  let status = 200;
  if (range) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (!m || (m[1] === '' && m[2] === '')) {
      throw new DomainError(416, 'range_not_satisfiable', `Unsupported Range header "${range}"; use one range, e.g. bytes=0-1023.`);
    }
    if (m[1] === '') {
      start = Math.max(0, size - Number(m[2]));
    } else {
      start = Number(m[1]);
      end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    }
    if (start > end || start >= size) {
      const e = new DomainError(416, 'range_not_satisfiable', `The range ${range} is outside the ${size} bytes of the file.`);
      throw e;
    }
    status = 206;
    headers['content-range'] = `bytes ${start}-${end}/${size}`;
  }
  headers['content-length'] = String(end - start + 1);
  if (c.req.method === 'HEAD' || size === 0) return new Response(null, { status, headers });
  const stream = Readable.toWeb(fs.createReadStream(file, { start, end })) as ReadableStream;
  return new Response(stream, { status, headers });
}

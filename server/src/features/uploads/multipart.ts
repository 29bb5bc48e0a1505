/**
 * Streaming multipart/form-data with busboy: parts are handed over as streams while the request
 * body arrives, so a 50 GB file never sits in memory (Hono's `parseBody` would buffer it whole:
 * 3 GB of RSS for a 500 MB upload, reference/dependencies.md §11).
 *
 * Rules every upload operation shares:
 * - Parts are processed one after another in the order they arrive; a text field is seen by the
 *   file parts after it (so `repository_id` must come before the files it applies to).
 * - A file handler must consume its stream (write it, or `resume()` it). What it throws or rejects
 *   with ends the whole request: the parser stops and that error is the answer. Per-file failures
 *   that should not stop a batch are caught by the handler itself.
 * - busboy's count limits (parts, files, fields) end the request with 413; a field longer than its
 *   limit with 413; a body that is not multipart with 415; a malformed body with 400.
 * - A body that ends before the form's closing boundary (the client went away, or sent fewer bytes
 *   than the form needs) ends the request with 400 `upload_incomplete`; one that brings no byte for
 *   `idleMs` while the parser waits for it ends it with 408 `upload_stalled`. Either way every part
 *   handler sees its stream break off, removes what it staged, and only then is the request
 *   answered: nothing is left holding an upload slot or a staging file.
 */
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { BadRequest, DomainError, PayloadTooLarge } from '../../platform/http/errors.ts';
import { ClientAborted } from '../intake/index.ts';
import { installBoundarySearch } from './boundary-search.ts';

/**
 * Buffering between the request, the parser and a file part's stream: larger than the streams'
 * defaults (16–64 KiB) so a part's bytes can flow in fewer, larger steps; bounded, so the memory
 * per request stays small (the staging sink holds at most 8 MiB more). Measured against the
 * defaults on 1 GiB uploads: no difference beyond the (large) noise of the test machine.
 */
const STREAM_HWM = 1024 * 1024;

export interface MultipartLimits {
  parts: number;
  files: number;
  fields: number;
  fieldSize: number;
  fileSize: number;
  /** A body that brings no byte for this long while the parser waits for it is stalled (408); none: no limit. */
  idleMs?: number;
}

export interface MultipartHandlers {
  /** `afterFile`: a file part came before this field. */
  field(name: string, value: string, afterFile: boolean): void;
  file(name: string, stream: Readable, info: { filename: string; mimeType: string }): Promise<void>;
}

/** The client went away (or the body broke off) mid-request: the intake's error, as the staging sink throws it too. */
export { ClientAborted };

/** The body stopped arriving: nothing came for the idle timeout while the server waited for it. */
export class UploadStalled extends DomainError {
  constructor(idleMs: number) {
    super(408, 'upload_stalled', `Nothing of the upload arrived for ${Math.round(idleMs / 1000)} s; it was given up. Send it again.`, { retryable: true });
  }
}

/**
 * Calls `onStall` when `body` brings no data for `idleMs` while it flows (the parser wants more).
 * While the body is paused (backpressure: a part's handler is busy, the disk is slow) the clock
 * does not run: the wait is the server's, not the client's. Returns the stop function.
 */
function watchIdle(body: Readable, idleMs: number, onStall: () => void): () => void {
  let last = Date.now();
  const touch = () => (last = Date.now());
  const tick = Math.max(10, Math.min(1000, Math.floor(idleMs / 4)));
  const timer = setInterval(() => {
    if (body.readableFlowing === false || body.readableEnded) return touch();
    if (Date.now() - last >= idleMs) onStall();
  }, tick);
  timer.unref();
  body.on('data', touch);
  return () => {
    clearInterval(timer);
    body.off('data', touch);
  };
}

export function parseMultipart(
  body: Readable,
  headers: Record<string, string | undefined>,
  limits: MultipartLimits,
  handlers: MultipartHandlers,
): Promise<void> {
  const type = headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    body.resume();
    return Promise.reject(new DomainError(415, 'unsupported_content_type', 'Send the upload as multipart/form-data.'));
  }
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { 'content-type': type },
      defParamCharset: 'utf8', // file names as browsers send them (UTF-8), not latin1
      limits: { parts: limits.parts, files: limits.files, fields: limits.fields, fieldSize: limits.fieldSize, fileSize: limits.fileSize, headerPairs: 50 },
      highWaterMark: STREAM_HWM,
      fileHwm: STREAM_HWM,
    });
    installBoundarySearch(bb); // the boundary search in C++ (Buffer.indexOf): see boundary-search.ts
  } catch (e) {
    body.resume();
    return Promise.reject(new BadRequest(`The multipart body cannot be read: ${(e as Error).message}.`, 'malformed_multipart'));
  }

  return new Promise<void>((resolve, reject) => {
    const pending: Promise<void>[] = [];
    let queue: Promise<void> = Promise.resolve();
    let filesSeen = 0;
    let settled = false;
    let stopWatching = () => {};
    const abort = (err: unknown) => {
      if (settled) return;
      settled = true;
      stopWatching();
      body.unpipe(bb);
      bb.destroy();
      body.resume(); // read and drop the rest, so the answer can still reach the client
      // Answer once every part handler has cleaned up after itself (staging files removed).
      void Promise.allSettled(pending).then(() => reject(err));
    };
    const tooMany = (what: string, n: number) => () => abort(new PayloadTooLarge(`Too many ${what} in one request (at most ${n}).`));
    bb.on('partsLimit', tooMany('parts', limits.parts));
    bb.on('filesLimit', tooMany('files', limits.files));
    bb.on('fieldsLimit', tooMany('fields', limits.fields));
    bb.on('field', (name, value, info) => {
      if (settled) return;
      if (info.valueTruncated) return abort(new PayloadTooLarge(`The field ${name} is longer than ${limits.fieldSize} bytes.`));
      try {
        handlers.field(name, value, filesSeen > 0);
      } catch (e) {
        abort(e);
      }
    });
    bb.on('file', (name, stream, info) => {
      if (settled) {
        stream.resume();
        return;
      }
      filesSeen++;
      stream.on('error', () => {}); // destroying the parser errors the open part; its handler sees it
      // One part at a time: a part's handler starts when the previous one has finished (its data
      // waits in the parser meanwhile, which holds the request back), so results come in order and
      // the chunk that completes a session is the one that reports the file.
      const p = queue.then(() => handlers.file(name, stream, { filename: info.filename ?? '', mimeType: info.mimeType }));
      queue = p.catch(() => undefined);
      pending.push(p);
      p.catch(abort);
    });
    bb.on('error', (e: Error) => {
      abort(/Unexpected end of (form|file)/.test(e.message) ? new ClientAborted() : new BadRequest(`The multipart body is malformed: ${e.message}.`, 'malformed_multipart'));
    });
    bb.on('finish', () => {
      void Promise.all(pending).then(
        () => {
          if (settled) return;
          settled = true;
          stopWatching();
          resolve();
        },
        abort,
      );
    });
    body.on('error', () => abort(new ClientAborted()));
    body.pipe(bb);
    const idleMs = limits.idleMs;
    if (idleMs) stopWatching = watchIdle(body, idleMs, () => abort(new UploadStalled(idleMs)));
  });
}

import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './uploads.routes.ts';
import { toStoredProblem } from './uploads.service.ts';

/**
 * The request body as a Node stream for busboy: read as it arrives, never buffered whole.
 *
 * Under @hono/node-server the Node request itself is in `c.env.incoming`: reading it directly skips
 * two stream adapters (Node → web ReadableStream → Node), which showed in CPU profiles of 1 GiB
 * uploads as about a second of main-thread time (the adapter's per-chunk work and the garbage it
 * makes). The web body is the fallback for other runtimes, as long as nobody read it.
 */
function bodyStream(c: Context<AppEnv>): Readable {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && typeof incoming.pipe === 'function' && !incoming.readableDidRead) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as unknown as NodeWebStream<Uint8Array>) : Readable.from([]);
}

/**
 * An upload answered before its body was read to the end (it stalled, broke off, or was refused
 * part-way) closes its connection after the answer: the rest of that body is not worth reading,
 * and a stalled client must not keep the socket, and the drain of its body, forever.
 */
async function closeUnfinishedBody(c: Context<AppEnv>, next: () => Promise<void>): Promise<void> {
  await next();
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && !incoming.complete) c.res.headers.set('connection', 'close');
}

export function uploadsRouter() {
  const { app, services } = routerUsing(['uploads']);
  app.use('/uploads/files', closeUnfinishedBody);
  app.use('/uploads/batch', closeUnfinishedBody);
  // The stream is a raw route: never enveloped in variant B, its errors stay problem+json.
  app.use('/uploads/receipts/stream', async (c, next) => {
    c.set('rawRoute', true);
    await next();
  });
  app.openapi(r.uploadAsset, async (c) => {
    const hash = c.req.valid('header')['x-content-hash'];
    return c.json(await services(c).uploads.uploadSingle(c.get('actor')!, bodyStream(c), c.req.header('content-type'), hash), 200);
  });
  app.openapi(r.batchUploadAssets, async (c) =>
    c.json(await services(c).uploads.uploadBatch(c.get('actor')!, bodyStream(c), c.req.header('content-type')), 200),
  );
  app.openapi(r.createUploadSession, async (c) => {
    const { created, session } = await services(c).uploads.createSession(c.get('actor')!, c.req.valid('json'));
    return created ? c.json(session, 201) : c.json(session, 200);
  });
  app.openapi(r.getUploadProgress, (c) => c.json(services(c).uploads.progress(c.get('actor')!, c.req.valid('query').session_ids), 200));
  app.openapi(r.getUploadConfig, (c) => c.json(services(c).uploads.config(), 200));
  app.openapi(r.precheckUploads, (c) => c.json(services(c).uploads.precheck(c.get('actor')!, c.req.valid('json')), 200));
  app.openapi(r.getUploadStatus, (c) => c.json(services(c).uploads.receipts(c.get('actor')!, c.req.valid('query').receipt_ids), 200));
  app.openapi(r.streamUploadStatus, (c) => {
    const [uploads, actor, ids] = [services(c).uploads, c.get('actor')!, c.req.valid('query').receipt_ids];
    return streamSSE(c, async (stream) => {
      const ac = new AbortController();
      stream.onAbort(() => ac.abort());
      const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) });
      await uploads.watchReceipts(actor, ids, send, ac.signal).catch((e: unknown) => send('error', toStoredProblem(e)));
    }) as never;
  });
  return app;
}

import { streamSSE } from 'hono/streaming';
import { bodyStream, closeUnfinishedBody } from '../../platform/http/request-body.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './uploads.routes.ts';
import { toStoredProblem } from './uploads.service.ts';

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

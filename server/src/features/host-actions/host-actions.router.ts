import { streamSSE } from 'hono/streaming';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './host-actions.routes.ts';

/** How long the members' stream stays quiet before a heartbeat (proxies close idle streams). */
const HEARTBEAT_MS = 15_000;

export function hostActionsRouter() {
  const { app, services } = routerUsing(['hostActions']);
  // The stream is a raw route: never enveloped in variant B, its errors stay problem+json.
  app.use('/host-actions/stream', async (c, next) => {
    c.set('rawRoute', true);
    await next();
  });
  app.openapi(r.listHostActions, (c) => c.json(services(c).hostActions.list(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.createHostAction, (c) => {
    const { created, action } = services(c).hostActions.create(c.get('actor')!, c.req.valid('header')['idempotency-key'], c.req.valid('json'));
    return created ? c.json(action, 201) : c.json(action, 200);
  });
  app.openapi(r.streamHostActions, (c) => {
    const [hostActions, actor] = [services(c).hostActions, c.get('actor')!];
    return streamSSE(c, async (stream) => {
      const ac = new AbortController();
      stream.onAbort(() => ac.abort());
      const beat = setInterval(() => void stream.writeSSE({ event: 'heartbeat', data: JSON.stringify({ at: new Date().toISOString() }) }), HEARTBEAT_MS);
      try {
        await stream.writeSSE({ event: 'ready', data: JSON.stringify({ at: new Date().toISOString() }) });
        await hostActions.watch(actor, (view) => stream.writeSSE({ event: 'host_action', data: JSON.stringify(view) }), ac.signal);
      } finally {
        clearInterval(beat);
      }
    }) as never;
  });
  app.openapi(r.getHostAction, (c) => c.json(services(c).hostActions.get(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.cancelHostAction, (c) => c.json(services(c).hostActions.cancel(c.get('actor')!, c.req.valid('param').id, c.req.valid('query')), 200));
  app.openapi(r.retryHostAction, (c) => c.json(services(c).hostActions.retry(c.get('actor')!, c.req.valid('param').id, c.req.valid('query')), 200));
  app.openapi(r.decideHostActionRecovery, (c) => c.json(services(c).hostActions.decide(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  return app;
}

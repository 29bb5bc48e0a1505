import { streamSSE } from 'hono/streaming';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './agent.routes.ts';
import * as t from './threads.routes.ts';

export function agentRouter() {
  const { app, services } = routerUsing(['agent']);
  // The two streams are raw routes: never enveloped in variant B, their errors stay problem+json.
  for (const p of ['/agent/chat', '/agent/chat/resume']) {
    app.use(p, async (c, next) => {
      c.set('rawRoute', true);
      await next();
    });
  }
  app.openapi(r.chatAgent, (c) => {
    const engine = services(c).agent.engine;
    const prepared = engine.prepareChat(c.get('actor')!, c.req.valid('json'));
    return streamSSE(c, async (stream) => {
      const gone = new AbortController();
      stream.onAbort(() => gone.abort());
      await engine.run(prepared, (e) => stream.writeSSE({ event: e.event, data: JSON.stringify(e.data) }), gone.signal);
    }) as never;
  });
  app.openapi(r.cancelAgentChat, (c) => c.json(services(c).agent.engine.cancel(c.get('actor')!, c.req.valid('json')), 200));
  app.openapi(r.resumeAgentChat, (c) => {
    const engine = services(c).agent.engine;
    const prepared = engine.prepareResume(c.get('actor')!, c.req.valid('json'));
    return streamSSE(c, async (stream) => {
      const gone = new AbortController();
      stream.onAbort(() => gone.abort());
      await engine.resume(prepared, (e) => stream.writeSSE({ event: e.event, data: JSON.stringify(e.data) }), gone.signal);
    }) as never;
  });
  app.openapi(r.getAgentEffectStatus, (c) => c.json(services(c).agent.effectStatus(c.get('actor')!, c.req.valid('param').id, c.req.valid('query').thread_id) as never, 200));
  app.openapi(r.listAgentPins, (c) => c.json(services(c).agent.pins(c.get('actor')!), 200));
  app.openapi(r.pinAgentRef, async (c) => c.json(await services(c).agent.create(c.get('actor')!, c.req.valid('json')), 200));
  app.openapi(r.updateAgentPinLayout, (c) => c.json(services(c).agent.layout(c.get('actor')!, c.req.valid('json').pins), 200));
  app.openapi(r.getAgentPin, (c) => c.json(services(c).agent.pin(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.updateAgentPin, (c) => c.json(services(c).agent.update(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(r.deleteAgentPin, (c) => c.json(services(c).agent.remove(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.getAgentPinAssets, async (c) => c.json((await services(c).agent.pinAssets(c.get('actor')!, c.req.valid('param').id, c.req.valid('query'))) as never, 200));
  app.openapi(r.queryAgentPinAssets, async (c) => c.json(await services(c).agent.queryPinAssets(c.get('actor')!, c.req.valid('param').id, c.req.valid('json') ?? {}), 200));
  app.openapi(r.searchAgentPinAssets, async (c) => c.json((await services(c).agent.searchPinAssets(c.get('actor')!, c.req.valid('param').id, c.req.valid('json'))) as never, 200));
  app.openapi(r.getAgentRef, (c) => c.json(services(c).agent.ref(c.get('actor')!, c.req.valid('param').id, c.req.valid('query').thread_id), 200));
  app.openapi(r.getAgentRefAssets, (c) => {
    const q = c.req.valid('query');
    return c.json(services(c).agent.refAssets(c.get('actor')!, c.req.valid('param').id, q.thread_id, { limit: q.limit, offset: q.offset }) as never, 200);
  });
  app.openapi(t.listAgentThreads, (c) => c.json(services(c).agent.threads.list(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(t.getAgentThread, (c) => c.json(services(c).agent.threads.get(c.get('actor')!, c.req.valid('param').id) as never, 200));
  app.openapi(t.deleteAgentThread, (c) => c.json(services(c).agent.threads.remove(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.listAgentTools, (c) => c.json(services(c).agent.tools(c.req.valid('query').mode), 200));
  app.openapi(r.getAgentToolSchemas, (c) => c.json(services(c).agent.toolSchemas(), 200));
  return app;
}

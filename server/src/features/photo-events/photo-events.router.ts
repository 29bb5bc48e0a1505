import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './photo-events.routes.ts';

export function photoEventsRouter() {
  const { app, services } = routerUsing(['photoEvents']);
  const svc = (c: Context<AppEnv>) => services(c).photoEvents;

  app.openapi(r.listEvents, (c) => c.json(svc(c).list(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.getEventRebuildState, (c) => c.json(svc(c).rebuildState(c.get('actor')!), 200));
  app.openapi(r.updateEventRebuildState, (c) => c.json(svc(c).updateRebuildState(c.get('actor')!, c.req.valid('json')), 200));
  app.openapi(r.getEvent, (c) => c.json(svc(c).get(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.updateEvent, (c) => c.json(svc(c).update(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(r.listEventMembers, (c) => c.json(svc(c).members(c.get('actor')!, c.req.valid('param').id, c.req.valid('query')), 200));
  app.openapi(r.addEventAssets, (c) => c.json(svc(c).addAssets(c.get('actor')!, c.req.valid('param').id, c.req.valid('json').asset_ids), 200));
  app.openapi(r.removeEventMediaItem, (c) => {
    const p = c.req.valid('param');
    return c.json(svc(c).removeItem(c.get('actor')!, p.id, p.mediaItemId), 200);
  });
  app.openapi(r.getEventRelations, (c) => c.json(svc(c).relations(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.splitEvent, (c) => c.json(svc(c).split(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(r.resetEvent, (c) => c.json(svc(c).reset(c.get('actor')!, c.req.valid('param').id), 200));
  return app;
}

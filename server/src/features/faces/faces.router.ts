import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './faces.routes.ts';

export function facesRouter() {
  const { app, services } = routerUsing(['people', 'browse']);
  const svc = (c: Context<AppEnv>) => services(c).people;

  app.openapi(r.listPeople, (c) => c.json(svc(c).list(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.rebuildPeopleClusters, (c) => c.json(svc(c).rebuild(c.get('actor')!), 202));
  // Before /people/{id}, which would take "rebuild" for an id.
  app.openapi(r.getPeopleRebuild, (c) => c.json(svc(c).rebuildState(c.get('actor')!), 200));
  app.openapi(r.getPerson, (c) => c.json(svc(c).get(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.updatePerson, (c) => c.json(svc(c).update(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(r.queryPersonAssets, async (c) => {
    const id = c.req.valid('param').id;
    const actor = c.get('actor')!;
    svc(c).checkOwn(actor, id);
    const q = c.req.valid('json');
    return c.json(await services(c).browse.query(actor, { ...q, filter: { ...q.filter, person_id: id } }), 200);
  });
  app.openapi(r.getPersonCover, async (c) => {
    const jpeg = await svc(c).cover(c.get('actor')!, c.req.valid('param').id);
    return c.body(new Uint8Array(jpeg), 200, { 'Content-Type': 'image/jpeg', 'Cache-Control': 'private, max-age=60' }) as never;
  });
  app.openapi(r.mergePeople, (c) => c.json(svc(c).merge(c.get('actor')!, c.req.valid('param').id, c.req.valid('json').person_ids), 200));
  app.openapi(r.assignFace, (c) => c.json(svc(c).assign(c.get('actor')!, c.req.valid('param').faceId, c.req.valid('json').person_id), 200));
  app.openapi(r.rejectFace, (c) => c.json(svc(c).reject(c.get('actor')!, c.req.valid('param').faceId), 200));
  return app;
}

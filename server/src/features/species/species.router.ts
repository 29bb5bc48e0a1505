import { routerUsing } from '../../platform/http/router.ts';
import * as r from './species.routes.ts';

export function speciesRouter() {
  const { app, services } = routerUsing(['species']);
  app.openapi(r.getSpeciesReference, async (c) => c.json(await services(c).species.reference(c.req.valid('query')), 200));
  return app;
}

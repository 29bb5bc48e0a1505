import { createRouter } from '../../platform/http/router.ts';
import * as r from './species.routes.ts';

export function speciesRouter() {
  const app = createRouter();
  app.openapi(r.getSpeciesReference, async (c) => c.json(await c.get('container').species.reference(c.req.valid('query')), 200));
  return app;
}

import { createRouter } from '../../platform/http/router.ts';
import * as r from './places.routes.ts';
import { PlacesService } from './places.service.ts';

export function placesRouter() {
  const app = createRouter();
  app.openapi(r.getMapPoints, (c) => c.json(new PlacesService(c.get('container').db).mapPoints(c.get('actor')!, c.req.valid('query')), 200));
  return app;
}

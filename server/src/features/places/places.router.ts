import { jsonText } from '../../platform/http/json-text.ts';
import { createRouter } from '../../platform/http/router.ts';
import * as r from './places.routes.ts';

export function placesRouter() {
  const app = createRouter();
  // The body is the MapPoints document written by the service (kept point JSON, see map-index.ts).
  app.openapi(r.getMapPoints, async (c) => jsonText<r.MapPoints>(c, await c.get('container').places.mapPointsJson(c.get('actor')!, c.req.valid('query'))));
  return app;
}

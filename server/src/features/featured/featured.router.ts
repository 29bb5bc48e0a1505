import { createRouter } from '../../platform/http/router.ts';
import * as r from './featured.routes.ts';

export function featuredRouter() {
  const app = createRouter();
  app.openapi(r.getFeaturedPhotos, (c) => c.json(c.get('container').featured.featured(c.get('actor')!, c.req.valid('query')), 200));
  return app;
}

import { createRouter } from '../../platform/http/router.ts';
import * as r from './featured.routes.ts';
import { FeaturedService } from './featured.service.ts';

export function featuredRouter() {
  const app = createRouter();
  app.openapi(r.getFeaturedPhotos, (c) => c.json(new FeaturedService(c.get('container').db).featured(c.get('actor')!, c.req.valid('query')), 200));
  return app;
}

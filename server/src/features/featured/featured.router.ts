import { routerUsing } from '../../platform/http/router.ts';
import * as r from './featured.routes.ts';

export function featuredRouter() {
  const { app, services } = routerUsing(['featured']);
  app.openapi(r.getFeaturedPhotos, (c) => c.json(services(c).featured.featured(c.get('actor')!, c.req.valid('query')), 200));
  return app;
}

import type { Context } from 'hono';
import { routerUsing } from '../../../platform/http/router.ts';
import type { AppEnv } from '../../../platform/http/context.ts';
import * as r from './corrections.routes.ts';

export function correctionsRouter() {
  const { app, services } = routerUsing(['corrections']);
  const svc = (c: Context<AppEnv>) => services(c).corrections;
  app.openapi(r.updateAssetCaptureTime, (c) => c.json(svc(c).setTime(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(r.restoreAssetCaptureTime, (c) => c.json(svc(c).restoreTime(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.updateAssetsCaptureTime, (c) => c.json(svc(c).shiftTimes(c.get('actor')!, c.req.valid('json')), 200));
  app.openapi(r.updateAssetLocation, (c) => c.json(svc(c).setPlace(c.get('actor')!, [c.req.valid('param').id], c.req.valid('json'), () => 'path.id'), 200));
  app.openapi(r.restoreAssetLocation, (c) => c.json(svc(c).restorePlace(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.updateAssetsLocation, (c) => {
    const body = c.req.valid('json');
    return c.json(svc(c).setPlace(c.get('actor')!, body.asset_ids, body, (i) => `body.asset_ids.${i}`), 200);
  });
  app.openapi(r.undoAssetCorrection, (c) => c.json(svc(c).undo(c.get('actor')!, c.req.valid('param').correction_id), 200));
  return app;
}

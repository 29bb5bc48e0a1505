import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './statistics.routes.ts';

export function statisticsRouter() {
  const { app, services } = routerUsing(['statistics']);
  const stats = (c: Context<AppEnv>) => services(c).statistics;
  app.openapi(r.getFilterOptions, async (c) => c.json(await stats(c).filterOptions(c.get('actor')!), 200));
  app.openapi(r.getAssetTypes, (c) => c.json(stats(c).assetTypes(), 200));
  app.openapi(r.getStatsYears, async (c) => c.json(await stats(c).years(c.get('actor')!, c.req.valid('query').repository_id), 200));
  app.openapi(r.getCameraLensStats, async (c) => c.json(await stats(c).cameraLens(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.getActivityHeatmap, async (c) => c.json(await stats(c).heatmap(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.getFocalLengthStats, async (c) => c.json(await stats(c).focalLengths(c.get('actor')!, c.req.valid('query').repository_id), 200));
  app.openapi(r.getTimeDistribution, async (c) => c.json(await stats(c).timeDistribution(c.get('actor')!, c.req.valid('query')), 200));
  return app;
}

import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './jobs.routes.ts';
import type { JobsService } from './jobs.service.ts';

export function jobsRouter() {
  const { app, services } = routerUsing(['jobReports']);
  const jobs = (c: Context<AppEnv>): JobsService => services(c).jobReports;
  app.openapi(r.getQueueSummaries, (c) => c.json(jobs(c).summaries(c.get('actor')!, c.req.valid('query').error_limit), 200));
  app.openapi(r.listQueues, (c) => c.json(jobs(c).listQueues(c.get('actor')!, c.req.valid('query').limit), 200));
  // Before /jobs/{id}, which would take "stats" for an id.
  app.openapi(r.getJobStats, (c) => c.json(jobs(c).stats(c.get('actor')!), 200));
  app.openapi(r.listJobs, (c) => {
    const q = c.req.valid('query');
    return c.json(jobs(c).list(c.get('actor')!, { ...q, include_count: q.include_count === 'true' }), 200);
  });
  app.openapi(r.getJob, (c) => c.json(jobs(c).get(c.get('actor')!, c.req.valid('param').id), 200));
  return app;
}

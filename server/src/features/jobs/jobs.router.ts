import type { Context } from 'hono';
import type { Container } from '../../container.ts';
import type { AppEnv } from '../../platform/http/context.ts';
import { createRouter } from '../../platform/http/router.ts';
import * as r from './jobs.routes.ts';
import { JobsService, type JobsContainer } from './jobs.service.ts';

function jobs(c: Context<AppEnv>): JobsService {
  const { jobs: queue, jobErrors } = c.get('container') as Container & Partial<JobsContainer>;
  if (!queue) throw new Error('the job queue is not in the container (container.ts must provide `jobs: JobQueue`)');
  return new JobsService(queue, jobErrors ? (args, text) => jobErrors.redactJobError(args, text) : undefined);
}

export function jobsRouter() {
  const app = createRouter();
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

/**
 * The Queue and jobs operations over HTTP, on the feature router mounted the way api.ts mounts
 * routers (with a container that provides `jobs` and `jobReports`): administrators only, shapes and ISO times,
 * filters and cursor paging, the 404 and 422 problems, and the OpenAPI description of each operation.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Hono } from 'hono';
import type { Container } from '../../../server/src/container.ts';
import { jobsRouter } from '../../../server/src/features/jobs/jobs.router.ts';
import { JobsService } from '../../../server/src/features/jobs/jobs.service.ts';
import type { AppEnv, Role } from '../../../server/src/platform/http/context.ts';
import { DomainError } from '../../../server/src/platform/http/errors.ts';
import { openApiDocument } from '../../../server/src/platform/http/openapi.ts';
import { makeProblem, problemResponse } from '../../../server/src/platform/http/problem.ts';
import { createRouter } from '../../../server/src/platform/http/router.ts';
import { sealServices } from '../../../server/src/platform/http/services.ts';
import { ALL, Echo, MakeThumbnail, QUEUES } from './defs.ts';
import { harness, type Harness } from './harness.ts';

const V1 = '/api/v1';
let h: Harness;
let app: Hono<AppEnv>;

/** As app.ts: container and actor on the context, domain errors as problems. Role from a test header. */
function buildApp(container: Partial<Container>) {
  const a = new Hono<AppEnv>();
  a.use('*', async (c, next) => {
    c.set('container', sealServices(container as Container));
    const role = c.req.header('x-test-role') as Role | undefined;
    c.set('actor', role ? { userId: 1, username: 'ann', role, sessionId: 's', via: 'bearer' } : null);
    return next();
  });
  a.route(V1, jobsRouter());
  a.onError((err) => {
    if (err instanceof DomainError) return problemResponse(makeProblem(err.status, err.code, err.message, { errors: err.extra.errors }));
    return problemResponse(makeProblem(500, 'internal_error', err.message));
  });
  return a;
}

async function get(p: string, role: Role | null = 'admin') {
  const r = await app.request(`${V1}${p}`, { headers: role ? { 'x-test-role': role } : {} });
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: (await r.json()) as any };
}

describe('Queue and jobs over HTTP', () => {
  before(() => {
    h = harness(ALL, QUEUES);
    app = buildApp({ jobs: h.queue, jobReports: new JobsService(h.queue) } as unknown as Partial<Container>);
    for (let n = 0; n < 5; n++) h.queue.enqueue(Echo, { n });
    const bad = h.queue.enqueue(MakeThumbnail, { asset: 'x' }).job.id;
    h.db
      .prepare(`UPDATE jobs SET state = 'discarded', attempt = 5, attempted_at = @t, finalized_at = @t, last_error = 'corrupt' WHERE id = @id`)
      .run({ id: bad, t: h.clock.now() });
  });
  after(() => h.cleanup());

  test('administrators only: 401 without a user, 403 for members', async () => {
    for (const p of ['/queues/summaries', '/queues', '/jobs', '/jobs/stats', '/jobs/1']) {
      const anon = await get(p, null);
      assert.equal(anon.status, 401, p);
      assert.match(anon.type, /application\/problem\+json/);
      const member = await get(p, 'user');
      assert.equal(member.status, 403, p);
      assert.equal(member.body.code, 'admin_only');
    }
  });

  test('statistics and summaries', async () => {
    const stats = await get('/jobs/stats');
    assert.equal(stats.status, 200);
    assert.deepEqual(stats.body, { available: 5, scheduled: 0, running: 0, retryable: 0, completed: 0, cancelled: 0, discarded: 1 });

    const s = await get('/queues/summaries');
    assert.equal(s.status, 200);
    assert.ok(!Number.isNaN(Date.parse(s.body.generated_at)));
    assert.deepEqual(s.body.queues.map((q: { name: string }) => q.name), ['beta', 'alpha', 'idle']);
    const beta = s.body.queues[0];
    assert.equal(beta.attention_jobs, 1);
    assert.equal(beta.error_samples[0].last_error, 'corrupt');
    assert.equal(beta.error_samples[0].created_at, new Date(h.clock.now()).toISOString());
    assert.equal(s.body.queues[1].oldest_remaining_at, new Date(h.clock.now()).toISOString());
    assert.deepEqual(s.body.queues.map((q: { held_back: unknown }) => q.held_back), [null, null, null], 'every queue at its full concurrency');
    assert.equal((await get('/queues/summaries?error_limit=0')).body.queues[0].error_samples.length, 0);
    const tooMany = await get('/queues/summaries?error_limit=21');
    assert.equal(tooMany.status, 422);
    assert.equal(tooMany.body.errors[0].field, 'query.error_limit');
  });

  test("a queue held back says why (the runner's answer, as the Jobs page reads it)", async () => {
    const held = { alpha: { reason: 'giving_way' as const, running_at_most: 1, to: ['imports'] }, idle: { reason: 'paused' as const, running_at_most: 0, to: [] } };
    const service = new JobsService(h.queue, undefined, undefined, (queue) => held[queue as keyof typeof held] ?? null);
    const heldApp = buildApp({ jobs: h.queue, jobReports: service } as unknown as Partial<Container>);
    const r = await heldApp.request(`${V1}/queues/summaries`, { headers: { 'x-test-role': 'admin' } });
    const body = (await r.json()) as { queues: { name: string; held_back: unknown }[] };
    assert.deepEqual(Object.fromEntries(body.queues.map((q) => [q.name, q.held_back])), { beta: null, ...held });
  });

  test('list with filters, count and cursor; one job by id', async () => {
    const first = await get('/jobs?limit=2&include_count=true&queue=alpha');
    assert.equal(first.status, 200);
    assert.equal(first.body.total, 5);
    assert.equal(first.body.limit, 2);
    assert.equal(first.body.jobs.length, 2);
    const seen = first.body.jobs.map((j: { id: number }) => j.id);
    let cursor = first.body.next_cursor as string | null;
    while (cursor) {
      const page = await get(`/jobs?limit=2&queue=alpha&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(page.body.total, undefined);
      seen.push(...page.body.jobs.map((j: { id: number }) => j.id));
      cursor = page.body.next_cursor;
    }
    assert.equal(new Set(seen).size, 5);

    assert.equal((await get('/jobs?state=discarded&time_range=1h')).body.jobs.length, 1);
    assert.equal((await get('/jobs?kind=test.echo-args&state=available')).body.jobs.length, 5);
    assert.equal((await get('/jobs?state=sleeping')).status, 422);
    assert.equal((await get('/jobs?time_range=2d')).status, 422);
    assert.equal((await get('/jobs?limit=201')).status, 422);
    const badCursor = await get('/jobs?cursor=nope');
    assert.equal(badCursor.status, 422);
    assert.equal(badCursor.body.errors[0].code, 'invalid_cursor');

    const one = await get(`/jobs/${seen[0]}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.id, seen[0]);
    assert.equal(one.body.kind, 'test.echo-args');
    assert.equal(one.body.state, 'available');
    assert.deepEqual(one.body.args, { n: 4 });
    assert.equal(one.body.scheduled_at, new Date(h.clock.now()).toISOString());
    assert.equal(one.body.attempted_at, null);
    assert.deepEqual(one.body.errors, []);

    const missing = await get('/jobs/99999');
    assert.equal(missing.status, 404);
    assert.match(missing.type, /application\/problem\+json/);
    assert.equal(missing.body.code, 'job_not_found');
    assert.equal((await get('/jobs/abc')).status, 422);
  });

  test('queues with concurrency and counts; limit', async () => {
    const all = await get('/queues');
    assert.equal(all.status, 200);
    assert.equal(all.body.limit, 100);
    assert.equal(all.body.total, 3);
    assert.deepEqual(all.body.queues[0], {
      name: 'alpha',
      concurrency: 2,
      kinds: ['test.echo-args', 'test.sync-folder'],
      total_jobs: 5,
      counts: { available: 5, scheduled: 0, running: 0, retryable: 0, completed: 0, cancelled: 0, discarded: 0 },
    });
    const one = await get('/queues?limit=1');
    assert.equal(one.body.queues.length, 1);
    assert.equal(one.body.total, 3);
  });

  test('every operation is in the contract, tagged, admin-only and documents its errors', () => {
    const api = createRouter();
    api.route(V1, jobsRouter());
    const doc = openApiDocument(api) as unknown as { paths: Record<string, Record<string, { operationId: string; tags: string[]; responses: Record<string, unknown>; 'x-hearth-access': string }>> };
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    assert.deepEqual(ops.map((o) => o.operationId).sort(), ['getJob', 'getJobStats', 'getQueueSummaries', 'listJobs', 'listQueues']);
    const specFile = path.resolve(import.meta.dirname, '../../..', process.env.HEARTH_SPEC_DIR ?? '../shared/spec', 'operations.md');
    if (fs.existsSync(specFile)) {
      const spec = fs.readFileSync(specFile, 'utf8');
      for (const o of ops) assert.match(spec, new RegExp(`\\| ${o.operationId} \\|`), `${o.operationId} is in operations.md`);
    }
    for (const o of ops) {
      assert.deepEqual(o.tags, ['Queue and jobs']);
      assert.equal(o['x-hearth-access'], 'admin');
      for (const s of ['200', '401', '403', '500']) assert.ok(s in o.responses, `${o.operationId} documents ${s}`);
    }
    assert.ok('404' in doc.paths['/api/v1/jobs/{id}']!.get!.responses);
  });
});

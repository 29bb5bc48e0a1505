/**
 * Bad input never crashes or leaks: malformed JSON → 400, wrong types / missing / unknown fields →
 * 422 naming each field, oversized bodies → 413, unknown routes → 404, always problem+json without a
 * stack trace; in variant B the same problems arrive inside the envelope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from './helpers/server.ts';
import { V1, problem, registerAdmin } from './helpers/api.ts';
import http from 'node:http';

function rawPost(url: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Headers; body: any; text: string }>((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode!, headers: h, body: JSON.parse(text), text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const variant of ['A', 'B'] as const) {
  describe(`bad input, variant ${variant}`, () => {
    let srv: TestServer;
    let c: Client;
    before(async () => {
      srv = await startServer();
      c = new Client(srv.url, variant);
      await registerAdmin(c);
    });
    after(() => srv.stop({ removeData: true }));

    test('malformed JSON is 400', async () => {
      const r = await c.req('POST', `${V1}/auth/login`, { body: '{"username": "alice",', headers: { 'content-type': 'application/json' } });
      assert.equal(r.status, 400);
      const p = problem(c, r);
      assert.equal(p.code, 'malformed_request');
      assert.match(p.detail, /JSON/);
    });

    test('wrong types and missing fields are 422 naming each field', async () => {
      const r = await c.post(`${V1}/auth/login`, { username: 42 });
      const p = problem(c, r);
      assert.equal(r.status, 422);
      const fields = p.errors!.map((e) => e.field).sort();
      assert.deepEqual(fields, ['body.password', 'body.username']);
      assert.equal(p.errors!.find((e) => e.field === 'body.password')!.message, 'is required');
    });

    test('unknown fields are refused where they matter', async () => {
      const r = await c.post(`${V1}/auth/register`, { username: 'zed', password: 'long enough pw', role: 'admin' });
      const p = problem(c, r);
      assert.equal(r.status, 422);
      assert.match(JSON.stringify(p.errors), /role/);
      const patch = await c.patch(`${V1}/users/me/profile`, { display_name: 'x', is_admin: true });
      assert.equal(patch.status, 422);
    });

    test('a body that is not JSON at all gets a clear answer', async () => {
      const r = await c.req('POST', `${V1}/auth/login`, { body: 'username=alice', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.ok([400, 415, 422].includes(r.status), r.text);
      problem(c, r);
    });

    test('oversized bodies are 413', async () => {
      const big = JSON.stringify({ username: 'a'.repeat(2 * 1024 * 1024), password: 'x' });
      // Its own connection: the server answers 413 without reading the rest and closes the socket.
      const r = await rawPost(`${srv.url}${V1}/auth/login`, big, { 'content-type': 'application/json', 'x-api-variant': variant });
      assert.equal(r.status, 413);
      assert.equal(problem(c, r).code, 'payload_too_large');
    });

    test('path parameters are validated', async () => {
      const r = await c.patch(`${V1}/users/abc`, { display_name: 'x' });
      assert.equal(r.status, 422);
      assert.equal(problem(c, r).errors![0]!.field, 'path.id');
    });

    test('unknown API routes are 404 problems', async () => {
      const r = await c.get(`${V1}/no-such-thing`);
      assert.equal(r.status, 404);
      assert.equal(problem(c, r).code, 'route_not_found');
    });

    test('an unknown repository gets one answer everywhere (404 repository_not_found, "No such repository.")', async () => {
      const gone = '00000000-0000-7000-8000-00000000dead';
      // [method, path, body, the field the answer names (the operations whose answers always named it)]
      const asks: [string, string, unknown, string | undefined][] = [
        ['GET', `/assets/map-points?repository_id=${gone}`, undefined, undefined],
        ['GET', `/assets/folders?repository_id=${gone}`, undefined, undefined],
        ['GET', `/assets/folders/summary?repository_id=${gone}`, undefined, undefined],
        ['GET', `/stats/available-years?repository_id=${gone}`, undefined, undefined],
        ['GET', `/assets/featured?repository_id=${gone}`, undefined, undefined],
        ['GET', `/assets/indexing/stats?repository_id=${gone}`, undefined, undefined],
        ['POST', `/repositories/${gone}/stacks/detect`, undefined, undefined],
        ['GET', `/albums?repository_id=${gone}`, undefined, 'query.repository_id'],
        ['POST', '/duplicates/detect', { repository_id: gone }, 'body.repository_id'],
      ];
      for (const [method, path, body, field] of asks) {
        const r = await c.req(method, `${V1}${path}`, body === undefined ? {} : { json: body });
        assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
        const p = problem(c, r);
        assert.equal(p.code, 'repository_not_found', path);
        assert.equal(p.detail, 'No such repository.', path);
        assert.deepEqual(p.errors?.map((e) => e.field), field === undefined ? undefined : [field], path);
      }
      // The named exceptions (RepositoriesService.require): an unknown repository in these bodies stays 422.
      for (const [path, body] of [['/assets/indexing/rebuild', { repository_id: gone }], ['/location-clusters/rebuild', { repository_id: gone }]] as const) {
        const r = await c.post(`${V1}${path}`, body);
        assert.equal(r.status, 422, `${path}: ${r.text}`);
        const p = problem(c, r);
        assert.equal(p.code, 'repository_not_found', path);
        assert.equal(p.errors?.[0]?.field, 'body.repository_id', path);
      }
    });

    test('a bad X-Api-Variant header is refused naming the header', async () => {
      const r = await c.get(`${V1}/health`, { headers: { 'x-api-variant': 'C' } });
      assert.equal(r.status, 422);
      assert.equal(JSON.parse(r.text).errors[0].field, 'header.x-api-variant');
    });

    test('responses carry a request id', async () => {
      const r = await c.get(`${V1}/health`, { headers: { 'x-request-id': 'trace-123' } });
      assert.equal(r.headers.get('x-request-id'), 'trace-123');
      const fresh = await c.get(`${V1}/health`);
      assert.match(fresh.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    });
  });
}

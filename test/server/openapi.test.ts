/**
 * The contract pipeline: the committed server/openapi.json (and the renderer's generated schema) match
 * the routes; every operation is documented (operationId, summary, tag, error responses); every
 * operationId is one of ../shared/spec/operations.md. Operations not built yet are listed, not failed.
 * The served document validates with an external validator (swagger-parser), and the schemas the test
 * client checks every JSON answer against (helpers/response-schemas.ts) accept what the server sends.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { clientSchemaText, currentDocumentText } from '../../scripts/gen-api.ts';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Client, startServer } from './helpers/server.ts';
import { ResponseSchemas } from './helpers/response-schemas.ts';

const root = path.resolve(import.meta.dirname, '../..');
const SPEC_OPERATIONS = path.resolve(root, process.env.HEARTH_SPEC_DIR ?? '../shared/spec', 'operations.md');
/** Operations beyond the contract (sharing, …), in the same table format. */
const EXTENSION_OPERATIONS = path.join(root, 'server/operations.extensions.md');

export function contractOperationIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  for (const line of markdown.split('\n')) {
    const m = /^\|\s*([a-z][A-Za-z0-9]+)\s*\|/.exec(line);
    if (m && m[1] !== 'operationId') ids.add(m[1]!);
  }
  return ids;
}

type Op = { operationId?: string; summary?: string; tags?: string[]; responses?: Record<string, unknown>; security?: unknown[]; 'x-hearth-access'?: string };

function operations(doc: { paths: Record<string, Record<string, Op>> }) {
  return Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ method, path: p, op })));
}

describe('OpenAPI contract', () => {
  const generated = currentDocumentText();
  const doc = JSON.parse(generated);

  test('server/openapi.json is committed and matches the routes', () => {
    const committed = fs.readFileSync(path.join(root, 'server/openapi.json'), 'utf8');
    assert.equal(committed, generated, 'server/openapi.json drifted from the routes: run npm run api:gen');
  });

  test("the renderer's generated client schema matches the document", async () => {
    const committed = fs.readFileSync(path.join(root, 'renderer/src/api/schema.d.ts'), 'utf8');
    assert.equal(committed, await clientSchemaText(generated), 'renderer/src/api/schema.d.ts is stale: run npm run api:gen');
  });

  test('every operation has an operationId, summary, tag, access and error responses', () => {
    const ops = operations(doc);
    assert.ok(ops.length > 0);
    const seen = new Set<string>();
    for (const { method, path: p, op } of ops) {
      const where = `${method.toUpperCase()} ${p}`;
      assert.ok(op.operationId, `${where} has no operationId`);
      assert.ok(!seen.has(op.operationId!), `duplicate operationId ${op.operationId}`);
      seen.add(op.operationId!);
      assert.ok(op.summary && op.summary.length > 5, `${where} has no summary`);
      assert.ok(op.tags?.length === 1, `${where} needs exactly one tag`);
      assert.ok(['public', 'user', 'admin', 'media'].includes(op['x-hearth-access'] ?? ''), `${where} declares no access`);
      const statuses = Object.keys(op.responses ?? {});
      assert.ok(statuses.some((s) => s.startsWith('2')), `${where} has no success response`);
      assert.ok(statuses.includes('500'), `${where} documents no 500`);
      for (const s of statuses.filter((x) => Number(x) >= 400)) {
        const content = (op.responses![s] as { content?: Record<string, unknown> }).content ?? {};
        assert.ok('application/problem+json' in content, `${where} ${s} is not a problem document`);
      }
      if (op['x-hearth-access'] !== 'public') {
        assert.ok(statuses.includes('401'), `${where} must document 401`);
        assert.ok((op.security?.length ?? 0) > 0, `${where} must declare its security scheme`);
      }
      if (op['x-hearth-access'] === 'admin') assert.ok(statuses.includes('403'), `${where} must document 403`);
    }
  });

  test('operationIds are those of the contract or of the extensions file; missing ones are listed', () => {
    const contract = contractOperationIds(fs.readFileSync(SPEC_OPERATIONS, 'utf8'));
    const extensions = contractOperationIds(fs.readFileSync(EXTENSION_OPERATIONS, 'utf8'));
    assert.ok(contract.size > 150, `parsed ${contract.size} operationIds from operations.md`);
    assert.ok(extensions.size > 0, `parsed ${extensions.size} operationIds from operations.extensions.md`);
    const both = [...extensions].filter((id) => contract.has(id));
    assert.deepEqual(both, [], `operationIds listed in both operations.md and operations.extensions.md: ${both.join(', ')}`);
    const ours = operations(doc).map((o) => o.op.operationId!);
    const unknown = ours.filter((id) => !contract.has(id) && !extensions.has(id));
    assert.deepEqual(unknown, [], `operationIds in neither operations.md nor operations.extensions.md: ${unknown.join(', ')}`);
    const missing = [...contract].filter((id) => !ours.includes(id));
    const missingExtensions = [...extensions].filter((id) => !ours.includes(id));
    // The extensions file lists what Hearth serves: an entry without a route is a stale file.
    assert.deepEqual(missingExtensions, [], `operations.extensions.md lists operations that are not served: ${missingExtensions.join(', ')}`);
    console.log(`# contract coverage: ${ours.length - extensions.size}/${contract.size} operations (+${extensions.size} extensions); not yet built: ${missing.length}`);
    console.log(`# missing: ${missing.join(', ')}`);
  });

  test('the served document validates with swagger-parser', async () => {
    const srv = await startServer();
    try {
      const served = await (await fetch(`${srv.url}/api/openapi.json`)).json();
      await SwaggerParser.validate(structuredClone(served) as Parameters<typeof SwaggerParser.validate>[0]);
    } finally {
      await srv.stop({ removeData: true });
    }
  });

  test('path parameters are required and never null; no parameter is nullable', () => {
    for (const { method, path: p, op } of operations(doc)) {
      for (const param of ((op as { parameters?: { name: string; in: string; required?: boolean; schema?: { type?: unknown } }[] }).parameters ?? [])) {
        const where = `${method.toUpperCase()} ${p} ${param.in} ${param.name}`;
        if (param.in === 'path') assert.equal(param.required, true, `${where} must be required`);
        assert.ok(!JSON.stringify(param.schema?.type ?? '').includes('null'), `${where} must not be nullable`);
      }
    }
  });

  test('nullable references accept null and their schema, and nothing else', () => {
    const schemas = new ResponseSchemas(doc);
    const check = (method: string, p: string, body: unknown) =>
      schemas.check({ method, path: p, status: 200, contentType: 'application/json', body, variant: 'A' });
    const scanPath = '/api/v1/repositories/0192f6c4-8a55-4b8e-9d4e-2f1f3a6b7c8d/scans/latest';
    check('get', scanPath, { scan: null });
    check('get', '/api/v1/assets/0192f6c4-8a55-4b8e-9d4e-2f1f3a6b7c8d/stack', { asset_id: 'x', stack: null });
    assert.throws(() => check('get', scanPath, { scan: 'nothing' }), /does not match the OpenAPI document/);
    assert.throws(() => check('get', scanPath, { scan: { scan_id: 'x' } }), /does not match the OpenAPI document/);
    const session = JSON.stringify(doc.components.schemas.UploadSession.properties.result);
    assert.doesNotMatch(session, /allOf/, 'UploadSession.result is a nullable reference, not an allOf');
    assert.match(session, /"type":"null"/);
  });

  test('the response check holds variant B answers to the envelope and the same schema', () => {
    const schemas = new ResponseSchemas(doc);
    const scanPath = '/api/v1/repositories/0192f6c4-8a55-4b8e-9d4e-2f1f3a6b7c8d/scans/latest';
    const B = (body: unknown, status = 200) => schemas.check({ method: 'get', path: scanPath, status, contentType: 'application/json', body, variant: 'B' });
    B({ code: 0, data: { scan: null }, error: '', message: 'success' });
    assert.throws(() => B({ scan: null }), /not a variant B envelope/);
    assert.throws(() => B({ code: 0, data: { scan: 3 }, error: '', message: 'success' }), /does not match/);
    const problem = { type: 'urn:hearth:problem:repository_not_found', title: 'Not Found', status: 404, detail: 'No such repository.', code: 'repository_not_found' };
    B({ code: 404, data: problem, error: 'repository_not_found', message: 'No such repository.' }, 404);
    assert.throws(() => B({ code: 404, data: { ...problem, status: 'x' }, error: 'e', message: 'm' }, 404), /does not match/);
    assert.throws(() => B({ code: 418, data: problem, error: 'e', message: 'm' }, 418), /declares no JSON answer for status 418/);
  });

  test('GET /api/openapi.json and /api/docs are served', async () => {
    const srv = await startServer();
    try {
      const c = new Client(srv.url);
      const r = await c.get('/api/openapi.json');
      assert.equal(r.status, 200);
      assert.equal(r.body.openapi, '3.1.0');
      assert.deepEqual(Object.keys(r.body.paths).sort(), Object.keys(doc.paths).sort());
      const docs = await c.get('/api/docs');
      assert.equal(docs.status, 200);
      assert.match(docs.headers.get('content-type') ?? '', /text\/html/);
      assert.match(docs.text, /refreshSession/);
      assert.match(docs.text, /Authentication and account/);
      assert.doesNotMatch(docs.text, /<script[^>]+src="https?:/, 'the docs page needs no internet');
    } finally {
      await srv.stop({ removeData: true });
    }
  });
});

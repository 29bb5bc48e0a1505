/**
 * Response variants as a deployment setting, and the public health/capability reports.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client, startServer } from './helpers/server.ts';
import { V1, registerAdmin } from './helpers/api.ts';

describe('response variants', () => {
  test('HEARTH_API_VARIANT=B makes B the default; X-Api-Variant overrides it per request', async () => {
    const srv = await startServer({ env: { HEARTH_API_VARIANT: 'B' } });
    try {
      const plainFetch = async (p: string, headers: Record<string, string> = {}) => {
        const r = await fetch(`${srv.url}${p}`, { headers });
        return { status: r.status, type: r.headers.get('content-type') ?? '', body: (await r.json()) as Record<string, unknown> };
      };
      const b = await plainFetch(`${V1}/health`);
      assert.deepEqual(Object.keys(b.body).sort(), ['code', 'data', 'error', 'message']);
      assert.equal(b.body.code, 0);
      assert.equal((b.body.data as { status: string }).status, 'ok');
      const a = await plainFetch(`${V1}/health`, { 'x-api-variant': 'A' });
      assert.equal(a.body.status, 'ok', 'header A: the resource itself');

      const fail = await plainFetch(`${V1}/auth/me`);
      assert.equal(fail.status, 401);
      assert.match(fail.type, /^application\/json/);
      assert.equal(fail.body.code, 401);
      assert.equal(fail.body.error, 'unauthorized');
      assert.equal((fail.body.data as { status: number }).status, 401, 'the problem document rides in data');
      const failA = await plainFetch(`${V1}/auth/me`, { 'x-api-variant': 'a' });
      assert.match(failA.type, /^application\/problem\+json/);
      assert.equal(failA.body.code, 'unauthorized');

      const doc = await plainFetch('/api/openapi.json');
      assert.equal(doc.body.openapi, '3.1.0', 'the OpenAPI document is a file, never enveloped');
    } finally {
      await srv.stop({ removeData: true });
    }
  });
});

describe('health and capabilities', () => {
  test('health answers without sign-in', async () => {
    const srv = await startServer();
    try {
      const r = await new Client(srv.url).get(`${V1}/health`);
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'ok');
      assert.equal(r.body.database, 'ok');
      assert.match(r.body.version, /^\d+\.\d+\.\d+/);
    } finally {
      await srv.stop({ removeData: true });
    }
  });

  test('capabilities report the ML tasks as enabled but not installed (an empty models folder; OCR comes from its npm package, faces from the repository), and no configured LLM', async () => {
    const srv = await startServer({ env: { HEARTH_ML_DEFAULT_ON: 'true' } });
    try {
      const c = new Client(srv.url);
      const caps = (await c.get(`${V1}/capabilities`)).body;
      assert.deepEqual([caps.ml.tasks.ocr.enabled, caps.ml.tasks.ocr.available], [true, true], 'OCR is installed with the app');
      assert.deepEqual([caps.ml.tasks.face_recognition.enabled, caps.ml.tasks.face_recognition.available], [true, true], 'faces ship with the app');
      for (const t of ['bioclip_classify', 'classify', 'semantic_image_embed', 'semantic_text_embed']) {
        assert.equal(caps.ml.tasks[t].enabled, true, t);
        assert.equal(caps.ml.tasks[t].available, false, t);
        assert.equal(caps.ml.tasks[t].reason, 'not_installed', t);
      }
      assert.equal(caps.ml.discovery_state, 'disabled');
      assert.equal(caps.ml.active_node_count, 0);
      assert.deepEqual(
        { configured: caps.llm.configured, agent_enabled: caps.llm.agent_enabled, availability: caps.llm.availability },
        { configured: false, agent_enabled: false, availability: 'not_configured' },
      );
      await registerAdmin(c);
      await c.patch(`${V1}/settings/system`, { ml: { face_enabled: false } });
      const after = (await c.get(`${V1}/capabilities`)).body;
      assert.deepEqual(
        { ...after.ml.tasks.face_recognition, detail: undefined },
        { enabled: false, available: false, reason: 'disabled', progress_percent: null, detail: undefined, models: ['yunet-n', 'mobilefacenet'] },
      );
    } finally {
      await srv.stop({ removeData: true });
    }
  });
});

/** System settings: admin-only, partial patches, validated, durable across restarts, secrets write-only. */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client, startServer } from './helpers/server.ts';
import { V1, data, login, problem, registerAdmin } from './helpers/api.ts';
import { KeyRing } from '../../server/src/platform/crypto/keys.ts';

describe('system settings', () => {
  test('patches persist across a restart and secrets are never returned or stored in clear', async () => {
    // A household's defaults: the ML tasks on (the test helper turns them off for tests not about ML).
    const srv = await startServer({ env: { HEARTH_ML_DEFAULT_ON: 'true' } });
    const dataDir = srv.dataDir;
    const admin = new Client(srv.url);
    await registerAdmin(admin);
    const before = data(admin, await admin.get(`${V1}/settings/system`));
    assert.equal(before.registration.mode, 'closed');
    assert.equal(before.llm.api_key_configured, false);
    assert.equal(before.library.scan_interval_seconds, 300);

    const secret = 'sk-very-secret-key-123';
    const patched = data(
      admin,
      await admin.patch(`${V1}/settings/system`, {
        llm: { provider: 'ollama', base_url: 'http://127.0.0.1:11434/v1', model_name: 'llama3', api_key: secret },
        ml: { ocr_enabled: false },
      }),
    );
    assert.equal(patched.llm.api_key_configured, true);
    assert.equal(patched.llm.model_name, 'llama3');
    assert.equal(patched.ml.ocr_enabled, false);
    assert.equal(patched.ml.face_enabled, true, 'untouched fields keep their values');
    assert.equal(JSON.stringify(patched).includes(secret), false);
    await srv.stop();

    // The secret is not in the catalog file in clear.
    const catalog = fs.readFileSync(path.join(dataDir, 'catalog.sqlite3'));
    const wal = fs.existsSync(path.join(dataDir, 'catalog.sqlite3-wal')) ? fs.readFileSync(path.join(dataDir, 'catalog.sqlite3-wal')) : Buffer.alloc(0);
    assert.equal(catalog.includes(secret) || wal.includes(secret), false);

    const again = await startServer({ dataDir, env: { HEARTH_ML_DEFAULT_ON: 'true' } });
    try {
      const c = new Client(again.url);
      await login(c, 'alice');
      const s = data(c, await c.get(`${V1}/settings/system`));
      assert.equal(s.llm.model_name, 'llama3');
      assert.equal(s.llm.api_key_configured, true);
      assert.equal(s.ml.ocr_enabled, false);
      assert.equal(again.container.settings.secret('llm.api_key'), secret, 'the server itself can still use it');
      const caps = data(c, await c.get(`${V1}/capabilities`));
      assert.equal(caps.ml.tasks.ocr.enabled, false);
      assert.equal(caps.llm.configured, true);
      assert.equal(JSON.stringify(caps).includes(secret), false);

      const cleared = data(c, await c.patch(`${V1}/settings/system`, { llm: { api_key: null } }));
      assert.equal(cleared.llm.api_key_configured, false);
    } finally {
      await again.stop({ removeData: true });
    }
  });

  test('HEARTH_ML_DEFAULT_ON=false: the ML tasks start off where the settings never said; what an admin sets is kept', async () => {
    const srv = await startServer({ env: { HEARTH_ML_DEFAULT_ON: 'false' } });
    try {
      const admin = new Client(srv.url);
      await registerAdmin(admin);
      const before = data(admin, await admin.get(`${V1}/settings/system`));
      assert.deepEqual([before.ml.semantic_enabled, before.ml.ocr_enabled, before.ml.face_enabled, before.ml.species_enabled], [false, false, false, false]);
      assert.equal(before.ml.video_max_frames, 8, 'the other ML settings keep their defaults');
      const patched = data(admin, await admin.patch(`${V1}/settings/system`, { ml: { ocr_enabled: true } }));
      assert.deepEqual([patched.ml.ocr_enabled, patched.ml.face_enabled], [true, false]);
      const caps = data(admin, await admin.get(`${V1}/capabilities`));
      assert.equal(caps.ml.tasks.semantic_image_embed.enabled, false);
      assert.equal(caps.ml.tasks.ocr.enabled, true);
    } finally {
      await srv.stop({ removeData: true });
    }
  });

  test('settings written by an earlier version still read: the old provider name, and a secret sealed without its name', async () => {
    const srv = await startServer();
    try {
      const admin = new Client(srv.url);
      await registerAdmin(admin);
      // As the version before provider kinds and named sealing wrote them.
      const key = KeyRing.fromFile(path.join(srv.dataDir, 'secret.key')).key('settings');
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update('sk-old-key', 'utf8'), cipher.final()]);
      const legacy = { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: sealed.toString('base64') };
      const write = srv.container.db.prepare('INSERT OR REPLACE INTO settings (key, value, updated_at, updated_by) VALUES (?, ?, ?, NULL)');
      write.run('llm', JSON.stringify({ agent_enabled: false, provider: 'openai_compatible', base_url: 'http://127.0.0.1:8080/v1', model_name: 'qwen' }), Date.now());
      write.run('secret.llm.api_key', JSON.stringify(legacy), Date.now());
      const s = data(admin, await admin.get(`${V1}/settings/system`));
      assert.deepEqual([s.llm.provider, s.llm.api_key_configured, s.llm.idle_timeout_s], ['custom', true, 120]);
      assert.equal(srv.container.settings.secret('llm.api_key'), 'sk-old-key');
      // A new key is sealed bound to its name: copied onto the invite code's row, it does not open.
      await admin.patch(`${V1}/settings/system`, { llm: { api_key: 'sk-new-key' } });
      const row = srv.container.db.prepare("SELECT value FROM settings WHERE key = 'secret.llm.api_key'").get() as { value: string };
      write.run('secret.registration.invite_code', row.value, Date.now());
      assert.throws(() => srv.container.settings.secret('registration.invite_code'));
      assert.equal(srv.container.settings.secret('llm.api_key'), 'sk-new-key');
    } finally {
      await srv.stop({ removeData: true });
    }
  });

  test('invalid settings are refused naming the field, and unknown fields are refused', async () => {
    const srv = await startServer();
    try {
      const admin = new Client(srv.url);
      await registerAdmin(admin);
      const bad = await admin.patch(`${V1}/settings/system`, { library: { scan_interval_seconds: 1 } });
      assert.equal(problem(admin, bad).errors?.[0]?.field, 'body.library.scan_interval_seconds');
      const unknown = await admin.patch(`${V1}/settings/system`, { library: { colour: 'red' } });
      assert.equal(unknown.status, 422);
      assert.match(JSON.stringify(problem(admin, unknown).errors), /body\.library/);
      const url = await admin.patch(`${V1}/settings/system`, { llm: { base_url: 'not a url' } });
      assert.equal(problem(admin, url).errors?.[0]?.field, 'body.llm.base_url');
      assert.equal(data(admin, await admin.get(`${V1}/settings/system`)).library.scan_interval_seconds, 300, 'nothing changed');
    } finally {
      await srv.stop({ removeData: true });
    }
  });
});

/**
 * What a newcomer sees: `npm start` on a fresh data folder builds the UI, then serves the UI and
 * GET /api/openapi.json within a few seconds of the server starting.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { tempDataDir } from './helpers/server.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('npm start', () => {
  test('serves the web UI and the OpenAPI document on a fresh data folder', { timeout: 120_000 }, async () => {
    const dataDir = path.join(tempDataDir(), 'data');
    const child = spawn('npm', ['start', '--silent'], {
      cwd: root,
      env: { ...process.env, HEARTH_PORT: '0', HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let serverStartedAt = 0;
    try {
      const ready = await new Promise<{ port: number; url: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no HEARTH_READY within 100 s:\n${out}`)), 100_000);
        const onData = (d: Buffer) => {
          out += d.toString();
          if (!serverStartedAt && /built in|✓/.test(out)) serverStartedAt = Date.now();
          const m = /HEARTH_READY (\{.*\})/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(JSON.parse(m[1]!));
          }
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
      });
      const sinceBuild = serverStartedAt ? Date.now() - serverStartedAt : 0;
      assert.ok(sinceBuild < 15_000, `the server took ${sinceBuild} ms after the UI build`);
      assert.match(out, /Hearth is running at http:\/\/127\.0\.0\.1:\d+\//, 'the URL is printed');
      const base = `http://127.0.0.1:${ready.port}`;
      const ui = await fetch(`${base}/`);
      assert.equal(ui.status, 200);
      const html = await ui.text();
      assert.match(html, /<div id="root">/);
      const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
      assert.ok(script, 'the page loads its built script');
      assert.equal((await fetch(`${base}${script}`)).status, 200);
      const deepLink = await fetch(`${base}/account`);
      assert.equal(deepLink.status, 200, 'client-side routes get index.html');
      const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as { info: { title: string } };
      assert.equal(doc.info.title, 'Hearth API');
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    }
  });
});

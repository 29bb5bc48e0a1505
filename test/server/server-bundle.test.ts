/**
 * `npm start` runs the server from its esbuild bundle (server/dist/main.js, scripts/build-server.ts), not
 * from the TypeScript sources the other tests load. Build it and check what only a bundle can get wrong:
 * that it starts and answers (both response variants), that the migrations are found beside it (a fresh
 * catalog is in bootstrap mode), and that the worker threads load from beside it (a HEIC photo is decoded
 * by heic-worker.js; without it the photo ends `failed`). Also that `--if-changed` leaves a current build
 * alone, and that the stamp follows the sources' contents (scripts/build-stamp.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { startChild, stopChild } from './crash/child.ts';
import { checkBuild } from '../../scripts/build-stamp.ts';
import { Client, tempDataDir } from './helpers/server.ts';
import { data, registerAdmin, V1 } from './helpers/api.ts';
import { copyCorpus, eventually, postMultipart } from './uploads/helpers.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dist = path.join(root, 'server/dist');

function buildServer(...args: string[]): { status: number | null; out: string } {
  // Plain node, as `npm run build:server` and `npm start` run it (no tsx).
  const r = spawnSync(path.join(root, 'node_modules/.bin/node'), ['scripts/build-server.ts', ...args], { cwd: root, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('server bundle (server/dist)', () => {
  test('builds, starts from the bundle and answers; migrations and worker threads are found beside it', { timeout: 180_000 }, async () => {
    const build = buildServer();
    assert.equal(build.status, 0, build.out);
    for (const f of ['main.js', 'server.js', 'heic-worker.js', 'hash-worker.js', 'cluster-worker.js', 'migrations/0001_foundation.sql']) assert.ok(fs.existsSync(path.join(dist, f)), `server/dist/${f} is built`);

    const again = buildServer('--if-changed');
    assert.equal(again.status, 0, again.out);
    assert.match(again.out, /up to date/, 'an unchanged build is not rebuilt');

    const src = copyCorpus(['heic/IMG_1034.heic']);
    // Started from another working folder: nothing is looked up relative to it.
    const server = await startChild(tempDataDir(), {}, { argv: [path.join(dist, 'main.js')], cwd: os.tmpdir() });
    try {
      const url = server.url;
      for (const variant of ['A', 'B'] as const) {
        const c = new Client(url, variant);
        const health = await c.get(`${V1}/health`);
        assert.equal(health.status, 200, health.text);
        assert.equal(data(c, health).status, 'ok');
        assert.equal(data(c, await c.get(`${V1}/auth/bootstrap`)).bootstrap_mode, true, 'migrations ran from the bundle');
      }

      const admin = new Client(url);
      await registerAdmin(admin);
      const up = await postMultipart(url, `${V1}/uploads/files`, admin.token, [{ name: 'file', filename: 'IMG_1034.heic', data: fs.readFileSync(src.file('heic/IMG_1034.heic')) }]);
      assert.equal(up.status, 200, up.text);
      const id = up.body.asset_id as string;
      const asset = await eventually(async () => {
        const a = data(admin, await admin.get(`${V1}/assets/${id}`));
        return a.state === 'ready' || a.state === 'failed' ? a : null;
      }, 90_000, 'the HEIC photo to be processed');
      assert.equal(asset.state, 'ready', `the HEIC decoder's worker loads from the bundle: ${JSON.stringify(asset)}`);
      const thumb = await admin.get(`${V1}/assets/${id}/thumbnail?size=small`);
      assert.equal(thumb.status, 200);
      assert.match(thumb.headers.get('content-type') ?? '', /^image\/webp/);
    } finally {
      await stopChild(server);
      fs.rmSync(src.dir, { recursive: true, force: true });
    }
  });

  test('a build is current while its inputs keep their contents, whatever their times', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-stamp-'));
    const stamp = path.join(dir, 'out/.build-stamp');
    const inputs = ['src', 'extra.json'];
    const check = () => checkBuild(stamp, dir, inputs);
    try {
      fs.mkdirSync(path.join(dir, 'src/sub'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src/a.ts'), 'export const a = 1;\n');
      fs.writeFileSync(path.join(dir, 'src/sub/b.ts'), 'export const b = 2;\n');
      const first = check();
      assert.equal(first.current, false, 'never built');
      first.record();
      assert.equal(check().current, true, 'built from these inputs');

      const later = new Date(Date.now() + 60_000);
      fs.utimesSync(path.join(dir, 'src/a.ts'), later, later);
      assert.equal(check().current, true, 'a touched file does not rebuild');

      fs.writeFileSync(path.join(dir, 'src/sub/b.ts'), 'export const b = 3;\n');
      const changed = check();
      assert.equal(changed.current, false, 'a changed file rebuilds');
      assert.equal(check().current, false, 'and keeps asking for a build until one is recorded');
      changed.record();
      assert.equal(check().current, true);

      // Same size, same time, other bytes: only the contents can tell, which a re-stamped time makes visible.
      const t = fs.statSync(path.join(dir, 'src/sub/b.ts')).mtime;
      fs.writeFileSync(path.join(dir, 'src/sub/b.ts'), 'export const b = 4;\n');
      fs.utimesSync(path.join(dir, 'src/sub/b.ts'), later, later);
      assert.equal(check().current, false, 'a change under a new time rebuilds');
      fs.writeFileSync(path.join(dir, 'src/sub/b.ts'), 'export const b = 3;\n');
      fs.utimesSync(path.join(dir, 'src/sub/b.ts'), t, t);

      fs.renameSync(path.join(dir, 'src/sub/b.ts'), path.join(dir, 'src/sub/c.ts'));
      assert.equal(check().current, false, 'a renamed file rebuilds');
      fs.renameSync(path.join(dir, 'src/sub/c.ts'), path.join(dir, 'src/sub/b.ts'));
      fs.writeFileSync(path.join(dir, 'extra.json'), '{}');
      assert.equal(check().current, false, 'an input that appears rebuilds');
      fs.rmSync(path.join(dir, 'extra.json'));
      assert.equal(check().current, true, 'back to the recorded inputs');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

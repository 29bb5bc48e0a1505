/**
 * The host channel: reachable only on this machine (a socket only the data folder's owner opens, a token on
 * every request, nothing on the HTTP port), and the approvals it refuses: a path that does not exist, a file,
 * a symbolic link loop, the data folder or inside or around it, a relative path; an unknown, expired or
 * cancelled action. A refusal leaves the action waiting and registers nothing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, test } from 'node:test';
import { data, V1 } from '../helpers/api.ts';
import { tempDir } from '../repositories/helpers.ts';
import { hostChannelPaths } from '../../../server/src/features/host-actions/host-channel.paths.ts';
import type { HostActionForHost } from '../../../server/src/features/host-actions/host-channel.client.ts';
import { asked, assertNoPathIn, photoFolder, useHostEnv, waitFor, type HostEnv } from './helpers.ts';

/** One raw request over the socket: status, content type and body. */
function raw(socketPath: string, p: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: any }> {
  return new Promise((resolve, reject) => {
    http
      .get({ socketPath, path: p, headers }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'] ?? '', body: text ? JSON.parse(text) : null }));
      })
      .on('error', reject);
  });
}

describe('the host channel', () => {
  let env: HostEnv;
  useHostEnv((e) => (env = e));

  test('only the data folder’s owner can open it, and every request needs the token', async () => {
    const p = hostChannelPaths(env.srv.dataDir);
    assert.equal(fs.statSync(p.dir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(p.token).mode & 0o777, 0o600);
    assert.ok(fs.statSync(p.socket).isSocket());
    assert.equal(fs.statSync(p.socket).mode & 0o777, 0o600);
    assert.match(fs.readFileSync(p.token, 'utf8').trim(), /^[0-9a-f]{64}$/);

    for (const headers of [{}, { 'x-hearth-host-token': 'f'.repeat(64) }] as Record<string, string>[]) {
      const r = await raw(p.socket, '/host/v1/actions', headers);
      assert.equal(r.status, 401);
      assert.match(r.type, /^application\/problem\+json/);
      assert.equal(r.body.code, 'host_token_invalid');
    }
    const ok = await raw(p.socket, '/host/v1/actions', { 'x-hearth-host-token': fs.readFileSync(p.token, 'utf8').trim() });
    assert.equal(ok.status, 200);
    assert.ok(Array.isArray(ok.body.items));
  });

  test('it is not on the HTTP port', async () => {
    for (const p of ['/host/v1/actions', '/host/v1/events', '/host/v1/actions/x/approve']) {
      const r = await fetch(`${env.srv.url}${p}`, { headers: { 'x-hearth-host-token': fs.readFileSync(hostChannelPaths(env.srv.dataDir).token, 'utf8').trim() } });
      assert.equal(r.status, 404, p);
      assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    }
    const post = await fetch(`${env.srv.url}/host/v1/actions/x/approve`, { method: 'POST', body: JSON.stringify({ path: '/tmp' }), headers: { 'content-type': 'application/json' } });
    assert.equal(post.status, 404);
  });

  test('bad folders are refused with a reason; the action still waits and nothing is registered', async () => {
    const a = await asked(env.bob, { name: 'Bad input' });
    const count = env.srv.container.repositories.all().length;
    const base = tempDir('hearth-host-bad-');
    const file = path.join(base, 'photo.jpg');
    fs.writeFileSync(file, 'not a folder');
    fs.symlinkSync(path.join(base, 'loop-b'), path.join(base, 'loop-a'));
    fs.symlinkSync(path.join(base, 'loop-a'), path.join(base, 'loop-b'));
    const storage = path.join(env.srv.dataDir, 'storage');
    const cases: [string, string][] = [
      [path.join(base, 'missing'), 'folder_not_found'],
      [file, 'not_a_folder'],
      [path.join(base, 'loop-a'), 'symlink_loop'],
      [env.srv.dataDir, 'data_folder'],
      [storage, 'data_folder'],
      [path.dirname(env.srv.dataDir), 'data_folder'],
      ['relative/photos', 'path_not_absolute'],
      ['', 'path_required'],
    ];
    for (const [dir, code] of cases) {
      const e = await env.host.approve(a.id, dir).then(
        (r) => assert.fail(`${dir}: ${JSON.stringify(r)}`),
        (err) => err,
      );
      assert.equal(e.status, 422, `${dir}: ${e.message}`);
      assert.equal(e.code, code, `${dir}: ${e.message}`);
    }
    assert.equal(env.srv.container.repositories.all().length, count, 'nothing registered');
    const still = data(env.bob, await env.bob.get(`${V1}/host-actions/${a.id}`));
    assert.ok(['pending', 'presented'].includes(still.status), still.status);
    assert.ok(!fs.existsSync(path.join(base, '.hearth-repo')));

    // The person picks a good folder after all.
    assert.equal((await env.host.approve(a.id, photoFolder())).status, 'completed');
    const again = await env.host.approve(a.id, photoFolder()).catch((e) => e);
    assert.equal(again.status, 409);
    assert.equal(again.code, 'host_action_finished');
    assertNoPathIn(env.answers, [base, env.srv.dataDir]);
  });

  test('unknown actions are 404; the events stream follows every change', async () => {
    const unknown = await env.host.get('0192f6c4-8a55-4b8e-9d4e-2f1f3a6b7c8d').catch((e) => e);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.code, 'host_action_not_found');

    const seen: HostActionForHost[] = [];
    const stop = env.host.subscribe((a) => seen.push(a));
    try {
      // The stream is open once a change made now reaches it (a created action).
      let probe = await asked(env.bob, { name: 'Probe' });
      await waitFor('the subscription to open', async () => {
        if (seen.some((s) => s.id === probe.id)) return true;
        probe = await asked(env.bob, { name: 'Probe' });
        return false;
      });
      const a = await asked(env.carol, { name: 'Followed' });
      await env.host.deny(a.id);
      await waitFor('created and denied, live', () => seen.filter((s) => s.id === a.id).length === 2);
      const mine = seen.filter((s) => s.id === a.id);
      assert.deepEqual(mine.map((s) => s.status), ['pending', 'cancelled']);
      assert.equal(mine[0]!.requester.username, 'carol');
      assert.equal(mine[1]!.cancel_reason, 'host_denied');
    } finally {
      stop();
    }
  });
});

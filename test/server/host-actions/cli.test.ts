/**
 * `npm run host`, run as a child process against a running test server, as a person on a home server with no
 * screen runs it: `list` shows who asks, for what, the code and the expiry; `approve ID --path DIR` adds the
 * folder and says so; a refused approval and a conflict are said in words, with a non-zero exit for a refusal.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { data, V1 } from '../helpers/api.ts';
import { asked, photoFolder, useHostEnv, type HostEnv } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function host(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/host.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run host', () => {
  let env: HostEnv;
  useHostEnv((e) => (env = e));

  test('list, then approve a request from the command line', async () => {
    const a = await asked(env.bob, { name: 'From the shell' });
    // The data folder from the environment, as the server finds it (no --data).
    const listed = await host(['list'], { HEARTH_DATA_DIR: env.srv.dataDir });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(a.id));
    assert.match(listed.stdout, /asked by: bob/);
    assert.match(listed.stdout, /a regular repository named "From the shell"/);
    assert.match(listed.stdout, new RegExp(`code: +${a.code}`));
    assert.match(listed.stdout, /expires:/);

    const dir = photoFolder();
    const approved = await host(['approve', a.id, '--path', dir, '--data', env.srv.dataDir]);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /Done: "From the shell" is a repository now/);
    assert.equal(data(env.bob, await env.bob.get(`${V1}/host-actions/${a.id}`)).status, 'completed');

    // The same folder again: a conflict, said in words with the member's choices.
    const b = await asked(env.bob, { name: 'Again' });
    const conflict = await host(['approve', b.id, '--path', dir, '--data', env.srv.dataDir]);
    assert.equal(conflict.code, 0, conflict.stderr);
    assert.match(conflict.stdout, /This folder is a repository already/);
    assert.match(conflict.stdout, /bob chooses on their device: cancel/);

    // Refusals exit non-zero with the reason.
    const missing = await host(['approve', b.id, '--path', path.join(dir, 'nope'), '--data', env.srv.dataDir]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /request waits for the member|host_action_awaiting_decision/);
    const c = await asked(env.bob, { name: 'Not there' });
    const notThere = await host(['approve', c.id, '--path', path.join(dir, 'nope'), '--data', env.srv.dataDir]);
    assert.equal(notThere.code, 1);
    assert.match(notThere.stderr, /There is no folder at this path/);
    const denied = await host(['deny', c.id, '--data', env.srv.dataDir]);
    assert.equal(denied.code, 0, denied.stderr);
    assert.match(denied.stdout, /Denied/);
    assert.equal((await host(['approve', c.id, '--data', env.srv.dataDir])).code, 2, 'no --path: usage');
    const elsewhere = await host(['list', '--data', path.join(dir, 'no-server-here')]);
    assert.equal(elsewhere.code, 1);
    assert.match(elsewhere.stderr, /is Hearth running/);
  });

  test('pause and resume indexing from the command line', async () => {
    const paused = await host(['pause', '--data', env.srv.dataDir]);
    assert.equal(paused.code, 0, paused.stderr);
    assert.match(paused.stdout, /Indexing is paused/);
    assert.equal(env.srv.container.jobRunner.isPaused('media'), true);
    assert.match((await host(['indexing', '--data', env.srv.dataDir])).stdout, /Indexing is paused/);
    const resumed = await host(['resume', '--data', env.srv.dataDir]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /Indexing runs/);
    assert.equal(env.srv.container.jobRunner.isPaused('media'), false);
  });
});

/**
 * Who may create accounts: the first one only from this machine or with the printed setup code;
 * later ones only with the administrator's invite code. Concurrent first registrations yield exactly
 * one administrator.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client, startServer } from './helpers/server.ts';
import { PASSWORD, V1, data, problem, registerAdmin } from './helpers/api.ts';

/** A request relayed from another machine by a proxy on this one: never "local". */
const FROM_LAN = { 'x-forwarded-for': '192.168.1.77' };

describe('registration rules', () => {
  test('a stranger on the LAN cannot claim a fresh install without the setup code', async () => {
    const srv = await startServer();
    try {
      const codeFile = path.join(srv.dataDir, 'setup-code.txt');
      const code = fs.readFileSync(codeFile, 'utf8').trim();
      assert.match(code, /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      assert.equal(fs.statSync(codeFile).mode & 0o777, 0o600);

      const stranger = new Client(srv.url, 'A', FROM_LAN);
      const status = data(stranger, await stranger.get(`${V1}/auth/bootstrap`));
      assert.equal(status.setup_code_required, true);
      assert.equal(status.local_request, false);
      const denied = await stranger.post(`${V1}/auth/register`, { username: 'mallory', password: PASSWORD });
      assert.equal(problem(stranger, denied).code, 'setup_code_required');
      const wrong = await stranger.post(`${V1}/auth/register`, { username: 'mallory', password: PASSWORD, setup_code: 'AAAA-BBBB-CCCC' });
      assert.equal(wrong.status, 403);

      const owner = new Client(srv.url, 'A', FROM_LAN);
      const ok = await owner.post(`${V1}/auth/register`, { username: 'owner', password: PASSWORD, setup_code: code.toLowerCase() });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(data(owner, ok).user.role, 'admin');
      assert.equal(fs.existsSync(codeFile), false, 'the setup code is consumed');
    } finally {
      await srv.stop({ removeData: true });
    }
  });

  test('later accounts need the invite code; registration is closed by default', async () => {
    const srv = await startServer();
    try {
      const admin = new Client(srv.url);
      await registerAdmin(admin);
      const local = new Client(srv.url);
      const closed = await local.post(`${V1}/auth/register`, { username: 'eve', password: PASSWORD });
      assert.equal(problem(local, closed).code, 'registration_closed', 'even from this machine, once an admin exists');
      assert.equal(data(local, await local.get(`${V1}/auth/bootstrap`)).registration_open, false);

      const s = data(admin, await admin.patch(`${V1}/settings/system`, { registration: { mode: 'invite_code', invite_code: 'family-2026' } }));
      assert.equal(s.registration.mode, 'invite_code');
      assert.equal(s.registration.invite_code_configured, true);
      assert.equal(JSON.stringify(s).includes('family-2026'), false, 'the invite code is write-only');
      assert.equal(data(local, await local.get(`${V1}/auth/bootstrap`)).registration_open, true);

      const lan = new Client(srv.url, 'A', FROM_LAN);
      const wrong = await lan.post(`${V1}/auth/register`, { username: 'eve', password: PASSWORD, invite_code: 'guess' });
      assert.equal(problem(lan, wrong).code, 'invite_code_invalid');
      const ok = await lan.post(`${V1}/auth/register`, { username: 'dave', password: PASSWORD, invite_code: 'family-2026' });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(data(lan, ok).user.role, 'user');
      assert.equal(data(lan, ok).bootstrap_admin, false);
      const dup = await lan.post(`${V1}/auth/register`, { username: 'DAVE', password: PASSWORD, invite_code: 'family-2026' });
      assert.equal(problem(lan, dup).code, 'username_taken');

      await admin.patch(`${V1}/settings/system`, { registration: { invite_code: null } });
      const after = await lan.post(`${V1}/auth/register`, { username: 'frank', password: PASSWORD, invite_code: 'family-2026' });
      assert.equal(problem(lan, after).code, 'registration_closed', 'clearing the code closes registration');
    } finally {
      await srv.stop({ removeData: true });
    }
  });

  test('two simultaneous first registrations make exactly one administrator', async () => {
    const srv = await startServer();
    try {
      const [a, b] = await Promise.all(
        ['first', 'second'].map((u) => new Client(srv.url).post(`${V1}/auth/register`, { username: u, password: PASSWORD })),
      );
      const statuses = [a!.status, b!.status].sort();
      assert.deepEqual(statuses, [201, 403]);
      const users = srv.container.db.prepare("SELECT count(*) AS n FROM users WHERE role = 'admin'").get() as { n: number };
      assert.equal(users.n, 1);
    } finally {
      await srv.stop({ removeData: true });
    }
  });
});

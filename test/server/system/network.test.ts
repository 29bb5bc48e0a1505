/**
 * "Let other devices on this network use Hearth": the listener moves while the server runs (no
 * restart), the choice survives a restart, HEARTH_HOST still wins, only administrators change it,
 * and bad input is a problem. Reached over real sockets: 127.0.0.1 and this machine's own
 * non-loopback address (eth0 in a container); without one, the reported listening sockets are checked.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lanAddress } from '../helpers/network.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, login, problem, registerAdmin } from '../helpers/api.ts';


/** Whether a plain HTTP request to `host:port` gets an answer (true) or the connection is refused (false). */
async function answers(host: string, port: number): Promise<boolean> {
  try {
    // A fresh connection each time: a kept-alive one would outlive the socket that accepted it.
    const res = await fetch(`http://${host}:${port}${V1}/health`, { headers: { connection: 'close' } });
    await res.arrayBuffer();
    return res.status === 200;
  } catch (e) {
    const code = (e as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return false;
    throw e;
  }
}

const portOf = (srv: TestServer) => Number(new URL(srv.url).port);

/** What the network answers say, checked against the sockets themselves. */
async function assertReachable(client: Client, srv: TestServer, expected: boolean) {
  const status = data(client, await client.get(`${V1}/system/network`));
  assert.equal(status.reachable_from_network, expected);
  assert.equal(status.allow_other_devices, expected);
  const hosts = status.listening.map((l: { address: string }) => l.address).sort();
  assert.deepEqual(hosts, expected ? ['0.0.0.0', '::'].filter((h) => hosts.includes(h)).sort() : ['127.0.0.1']);
  if (expected) assert.ok(hosts.includes('0.0.0.0'), `listens on every IPv4 interface: ${hosts.join(', ')}`);
  assert.ok(status.listening.every((l: { port: number }) => l.port === portOf(srv)), 'every socket keeps the same port');
  // The app's own window keeps working through 127.0.0.1 in both modes.
  assert.equal(await answers('127.0.0.1', portOf(srv)), true);
  const lan = lanAddress();
  if (lan) assert.equal(await answers(lan, portOf(srv)), expected, `http://${lan}:${portOf(srv)} answers: ${expected}`);
  return status;
}

for (const variant of ['A', 'B'] as const) {
  describe(`network reachability (variant ${variant})`, () => {
    test('the listener moves at run time, survives a restart, and the admin page gets addresses with QR codes', async () => {
      const srv = await startServer();
      let again: TestServer | null = null;
      try {
        const admin = new Client(srv.url, variant);
        await registerAdmin(admin);
        const off = await assertReachable(admin, srv, false);
        assert.equal(off.fixed_by_environment, false);
        assert.equal(off.port, portOf(srv));
        const lan = lanAddress();
        if (lan) {
          const entry = off.addresses.find((a: { address: string }) => a.address === lan);
          assert.ok(entry, `the machine's address ${lan} is listed even while local-only`);
          assert.equal(entry.url, `http://${lan}:${portOf(srv)}`);
          assert.match(entry.qr_svg, /^<svg[\s\S]*<\/svg>\s*$/);
        }
        assert.ok(off.addresses.every((a: { address: string }) => !/^(127\.|::1$|fe[89ab])/i.test(a.address)), 'no loopback or link-local address is offered');

        const on = data(admin, await admin.patch(`${V1}/settings/system`, { network: { allow_other_devices: true } }));
        assert.equal(on.network.allow_other_devices, true);
        assert.equal(on.network.fixed_by_environment, false);
        await assertReachable(admin, srv, true);
        // The admin's own session (kept-alive or not) keeps working across the switch.
        assert.equal((await admin.get(`${V1}/auth/me`)).status, 200);

        await srv.stop();
        again = await startServer({ dataDir: srv.dataDir });
        const back = new Client(again.url, variant);
        await login(back, 'alice');
        await assertReachable(back, again, true);

        const local = data(back, await back.patch(`${V1}/settings/system`, { network: { allow_other_devices: false } }));
        assert.equal(local.network.allow_other_devices, false);
        await assertReachable(back, again, false);
      } finally {
        if (again) await again.stop({ removeData: true });
        else await srv.stop({ removeData: true });
      }
    });

    test('only administrators change it; bad input is a problem and changes nothing; HEARTH_HOST wins', async () => {
      const srv = await startServer();
      try {
        const admin = new Client(srv.url, variant);
        await registerAdmin(admin);
        const member = new Client(srv.url, variant);
        await addMember(admin, member, 'bob');
        const anonymous = new Client(srv.url, variant);

        assert.equal(problem(anonymous, await anonymous.patch(`${V1}/settings/system`, { network: { allow_other_devices: true } })).status, 401);
        const forbidden = problem(member, await member.patch(`${V1}/settings/system`, { network: { allow_other_devices: true } }));
        assert.equal(forbidden.status, 403);
        assert.equal(forbidden.code, 'admin_only');
        assert.equal(problem(member, await member.get(`${V1}/system/network`)).status, 403);
        assert.equal(problem(anonymous, await anonymous.get(`${V1}/system/network`)).status, 401);

        for (const bad of [{ network: { allow_other_devices: 'yes' } }, { network: { allow_other_devices: null } }, { network: { listen_on: '0.0.0.0' } }, { network: true }]) {
          const p = problem(admin, await admin.patch(`${V1}/settings/system`, bad));
          assert.equal(p.status, 422, JSON.stringify(bad));
          assert.equal(p.code, 'validation_failed');
          assert.ok(p.errors!.some((e) => e.field.startsWith('body.network')), `names the field: ${JSON.stringify(p.errors)}`);
        }
        await assertReachable(admin, srv, false);
      } finally {
        await srv.stop({ removeData: true });
      }

      const pinned = await startServer({ env: { HEARTH_HOST: '127.0.0.1' } });
      try {
        const admin = new Client(pinned.url, variant);
        await registerAdmin(admin);
        const settings = data(admin, await admin.get(`${V1}/settings/system`));
        assert.equal(settings.network.fixed_by_environment, true);
        const status = data(admin, await admin.get(`${V1}/system/network`));
        assert.equal(status.fixed_by_environment, true);
        assert.equal(status.environment_host, '127.0.0.1');
        const p = problem(admin, await admin.patch(`${V1}/settings/system`, { network: { allow_other_devices: true } }));
        assert.equal(p.status, 409);
        assert.equal(p.code, 'network_fixed_by_environment');
        assert.equal(data(admin, await admin.get(`${V1}/settings/system`)).network.allow_other_devices, false, 'nothing stored');
        const lan = lanAddress();
        if (lan) assert.equal(await answers(lan, portOf(pinned)), false);
      } finally {
        await pinned.stop({ removeData: true });
      }
    });
  });
}

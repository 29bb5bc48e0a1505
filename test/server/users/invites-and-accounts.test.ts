/**
 * Bringing members in without a shared code: single-use, expiring invite links (with QR codes) that
 * the sign-up page fills in, and accounts the administrator creates directly (the member changes the
 * first password at first sign-in). Both variants, over real HTTP.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lanAddress } from '../helpers/network.ts';
import { Client, startServer } from '../helpers/server.ts';
import { PASSWORD, V1, addMember, adopt, data, problem, registerAdmin } from '../helpers/api.ts';


for (const variant of ['A', 'B'] as const) {
  describe(`invite links and accounts made by the administrator (variant ${variant})`, () => {
    test('an invite link signs one member up, even with registration closed, then never again', async () => {
      const srv = await startServer();
      try {
        const admin = new Client(srv.url, variant);
        await registerAdmin(admin);
        assert.equal(data(admin, await admin.get(`${V1}/settings/system`)).registration.mode, 'closed');

        const made = await admin.post(`${V1}/invites`, { note: "Grandma's tablet" });
        assert.equal(made.status, 201, made.text);
        const invite = data(admin, made);
        assert.match(invite.code, /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
        assert.equal(invite.invite.state, 'pending');
        assert.equal(invite.invite.note, "Grandma's tablet");
        const days = (Date.parse(invite.invite.expires_at) - Date.parse(invite.invite.created_at)) / 86_400_000;
        assert.equal(days, 7, 'valid a week unless chosen otherwise');
        // Local-only: the link is on the address the administrator used.
        assert.deepEqual(invite.links.map((l: { url: string }) => l.url), [`${srv.url}/join?invite=${invite.code}`]);
        assert.match(invite.links[0].qr_svg, /^<svg[\s\S]*<\/svg>\s*$/);

        const listed = data(admin, await admin.get(`${V1}/invites`));
        assert.deepEqual(listed.invites.map((i: { id: number; state: string }) => [i.id, i.state]), [[invite.invite.id, 'pending']]);
        assert.equal(JSON.stringify(listed).includes(invite.code), false, 'the code is shown only once');

        // The phone opens the link and signs up with the code the page filled in (typed lower-case works too).
        const phone = new Client(srv.url, variant);
        const joined = adopt(phone, await phone.post(`${V1}/auth/register`, { username: 'grandma', password: PASSWORD, display_name: 'Grandma', invite_code: invite.code.toLowerCase() }), 201);
        assert.equal(joined.session.user.role, 'user', 'an invite never makes an administrator');
        assert.equal((await phone.get(`${V1}/auth/me`)).status, 200);

        const again = new Client(srv.url, variant);
        const reused = problem(again, await again.post(`${V1}/auth/register`, { username: 'eve', password: PASSWORD, invite_code: invite.code }));
        assert.equal(reused.status, 403);
        assert.equal(reused.code, 'invite_expired');
        assert.match(reused.detail, /already used/);
        const used = data(admin, await admin.get(`${V1}/invites`)).invites[0];
        assert.equal(used.state, 'used');
        assert.equal(used.used_by.username, 'grandma');
        assert.equal(problem(admin, await admin.req('DELETE', `${V1}/invites/${invite.invite.id}`)).code, 'invite_not_found', 'a used invite cannot be withdrawn');

        // Expired: its time is over (moved back in the catalog: the clock cannot be waited for).
        const old = data(admin, await admin.post(`${V1}/invites`, { expires_in_days: 1 }));
        srv.container.db.prepare('UPDATE invites SET expires_at = ? WHERE invite_id = ?').run(Date.now() - 1000, old.invite.id);
        const late = problem(again, await again.post(`${V1}/auth/register`, { username: 'eve', password: PASSWORD, invite_code: old.code }));
        assert.equal(late.code, 'invite_expired');
        assert.match(late.detail, /expired/);

        // Withdrawn: the code opens nothing any more.
        const withdrawn = data(admin, await admin.post(`${V1}/invites`, {}));
        assert.equal((await admin.req('DELETE', `${V1}/invites/${withdrawn.invite.id}`)).status, 200);
        const gone = problem(again, await again.post(`${V1}/auth/register`, { username: 'eve', password: PASSWORD, invite_code: withdrawn.code }));
        assert.equal(gone.status, 403);
        assert.equal(problem(admin, await admin.req('DELETE', `${V1}/invites/${withdrawn.invite.id}`)).status, 404);
        assert.equal(data(admin, await admin.get(`${V1}/users`)).total, 2, 'only grandma joined');
      } finally {
        await srv.stop({ removeData: true });
      }
    });

    test('links point at the network addresses once other devices are let in', async () => {
      const lan = lanAddress();
      const srv = await startServer();
      try {
        const admin = new Client(srv.url, variant);
        await registerAdmin(admin);
        data(admin, await admin.patch(`${V1}/settings/system`, { network: { allow_other_devices: true } }));
        const made = data(admin, await admin.post(`${V1}/invites`, {}));
        const urls: string[] = made.links.map((l: { url: string }) => l.url);
        const port = new URL(srv.url).port;
        const status = data(admin, await admin.get(`${V1}/system/network`));
        assert.deepEqual(urls, status.addresses.length ? status.addresses.map((a: { url: string }) => `${a.url}/join?invite=${made.code}`) : [`${srv.url}/join?invite=${made.code}`]);
        if (lan) {
          assert.ok(urls.includes(`http://${lan}:${port}/join?invite=${made.code}`), urls.join(', '));
          // The link opens the sign-up page from the phone's side of the network, and its code signs up.
          const page = await fetch(`http://${lan}:${port}/join?invite=${made.code}`);
          assert.notEqual(page.status, 404);
          await page.arrayBuffer();
          const phone = new Client(`http://${lan}:${port}`, variant);
          adopt(phone, await phone.post(`${V1}/auth/register`, { username: 'dora', password: PASSWORD, invite_code: made.code }), 201);
        }
      } finally {
        await srv.stop({ removeData: true });
      }
    });

    test('the administrator creates an account; its first password must be changed at first sign-in', async () => {
      const srv = await startServer();
      try {
        const admin = new Client(srv.url, variant);
        await registerAdmin(admin);

        const made = await admin.post(`${V1}/users`, { username: 'carol', display_name: 'Carol' });
        assert.equal(made.status, 201, made.text);
        const carol = data(admin, made);
        assert.equal(carol.user.username, 'carol');
        assert.equal(carol.user.display_name, 'Carol');
        assert.equal(carol.user.role, 'user');
        assert.match(carol.temporary_password, /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);

        const c = new Client(srv.url, variant);
        const pending = data(c, await c.post(`${V1}/auth/login`, { username: 'carol', password: carol.temporary_password }));
        assert.equal(pending.requires_password_change, true);
        assert.equal(pending.token, null, 'the first password only opens the change form');
        assert.equal(pending.password_change_reason, 'first_password', 'a new member is not told their access was reset');
        adopt(c, await c.post(`${V1}/auth/password-change/complete`, { password_change_token: pending.password_change_token, new_password: 'carols own password' }));
        assert.equal((await c.get(`${V1}/auth/me`)).status, 200);
        const signedIn = data(c, await c.post(`${V1}/auth/login`, { username: 'carol', password: 'carols own password' }));
        assert.equal(signedIn.password_change_reason, null, 'no reason once nothing is required');

        // Later the administrator resets Carol's access: now it is a reset, and says so.
        const reset = data(admin, await admin.post(`${V1}/users/${carol.user.user_id}/reset-access`));
        const again = data(c, await c.post(`${V1}/auth/login`, { username: 'carol', password: reset.temporary_password }));
        assert.equal(again.requires_password_change, true);
        assert.equal(again.password_change_reason, 'access_reset');

        const given = data(admin, await admin.post(`${V1}/users`, { username: 'dan', password: PASSWORD, role: 'admin' }));
        assert.equal(given.temporary_password, null);
        assert.equal(given.user.role, 'admin');
        const dan = data(c, await c.post(`${V1}/auth/login`, { username: 'dan', password: PASSWORD }));
        assert.equal(dan.requires_password_change, true);
        assert.equal(dan.password_change_reason, 'first_password', 'a password the administrator chose is a first password too');

        const taken = problem(admin, await admin.post(`${V1}/users`, { username: 'CAROL' }));
        assert.equal(taken.status, 409);
        assert.equal(taken.code, 'username_taken');
      } finally {
        await srv.stop({ removeData: true });
      }
    });

    test('only administrators make invites and accounts; bad input is a problem naming the field', async () => {
      const srv = await startServer();
      try {
        const admin = new Client(srv.url, variant);
        await registerAdmin(admin);
        const member = new Client(srv.url, variant);
        await addMember(admin, member, 'bob');
        const anonymous = new Client(srv.url, variant);
        for (const [method, path, body] of [
          ['POST', `${V1}/invites`, {}],
          ['GET', `${V1}/invites`, undefined],
          ['DELETE', `${V1}/invites/1`, undefined],
          ['POST', `${V1}/users`, { username: 'mallory', password: PASSWORD, role: 'admin' }],
        ] as const) {
          assert.equal(problem(member, await member.req(method, path, { json: body })).code, 'admin_only', `${method} ${path}`);
          assert.equal(problem(anonymous, await anonymous.req(method, path, { json: body })).status, 401, `${method} ${path}`);
        }
        const bad: [string, unknown, string][] = [
          [`${V1}/invites`, { expires_in_days: 0 }, 'body.expires_in_days'],
          [`${V1}/invites`, { expires_in_days: 31 }, 'body.expires_in_days'],
          [`${V1}/invites`, { expires_in_days: 'week' }, 'body.expires_in_days'],
          [`${V1}/invites`, { note: 'a\u0007b' }, 'body.note'],
          [`${V1}/invites`, { code: 'MINE' }, 'body'],
          [`${V1}/users`, { username: 'x' }, 'body.username'],
          [`${V1}/users`, { username: 'erin', password: 'short' }, 'body.password'],
          [`${V1}/users`, { username: 'erin', role: 'owner' }, 'body.role'],
          [`${V1}/users`, {}, 'body.username'],
        ];
        for (const [path, body, field] of bad) {
          const p = problem(admin, await admin.post(path, body));
          assert.equal(p.status, 422, `${path} ${JSON.stringify(body)}`);
          assert.ok(p.errors!.some((e) => e.field.startsWith(field)), `${JSON.stringify(body)} names ${field}: ${JSON.stringify(p.errors)}`);
        }
        assert.equal(problem(admin, await admin.req('DELETE', `${V1}/invites/abc`)).status, 422);
        assert.equal(data(admin, await admin.get(`${V1}/users`)).total, 2, 'nothing was created');
        assert.deepEqual(data(admin, await admin.get(`${V1}/invites`)).invites, []);
      } finally {
        await srv.stop({ removeData: true });
      }
    });
  });
}

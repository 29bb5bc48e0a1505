/**
 * The six host-action operations in both response variants, on a real server: a member asks (never with a
 * path), the person at the home machine approves through the real host channel (its client over the real
 * socket), the folder becomes a repository and its photos arrive; the answers follow live on the member's
 * stream. Idempotency, versions, cancel and retry, expiry (on read and by the sweep), who sees what.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, test } from 'node:test';
import { data, problem, V1 } from '../helpers/api.ts';
import type { Client } from '../helpers/server.ts';
import { ask, asked, assertNoPathIn, photoFolder, speaking, useHostEnv, waitFor, type HostEnv } from './helpers.ts';

describe('host actions', () => {
  let env: HostEnv;
  useHostEnv((e) => (env = e));
  const folders: string[] = [];

  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: ask, approve on the home machine, the repository appears and its photos arrive`, async () => {
      const bob = speaking(env, env.bob, variant);
      const events: any[] = [];
      const stop = follow(env, bob, events);
      try {
        const key = crypto.randomUUID();
        const body = { kind: 'open_repository', name: `Holiday ${variant}`, purpose: 'regular', request_id: `req-${variant}` };
        const created = await ask(bob, body, key);
        assert.equal(created.status, 201, created.text);
        const action = data(bob, created);
        assert.equal(action.status, 'pending');
        assert.match(action.code, /^\d{6}$/);
        assert.equal(action.version, 1);
        assert.equal(action.actor.username, 'bob');
        assert.equal(action.request_id, `req-${variant}`);
        assert.ok(Date.parse(action.expires_at) - Date.parse(action.created_at) === 15 * 60_000, 'pending approval: 15 minutes');

        // The same key and body: the original action, not a second one.
        const again = await ask(bob, body, key);
        assert.equal(again.status, 200, again.text);
        assert.equal(data(bob, again).id, action.id);

        // Listed and read by its member.
        const listed = data(bob, await bob.get(`${V1}/host-actions`));
        assert.ok(listed.some((a: any) => a.id === action.id));
        assert.equal(data(bob, await bob.get(`${V1}/host-actions/${action.id}`)).code, action.code);

        // The home machine sees who asks, for what, and the same code; listing presents it.
        const shown = (await env.host.list('pending')).find((a) => a.id === action.id);
        assert.ok(shown, 'the host lists the pending action');
        assert.equal(shown.requester.username, 'bob');
        assert.equal(shown.code, action.code);
        assert.equal(shown.name, `Holiday ${variant}`);
        assert.equal(shown.status, 'presented');

        const dir = photoFolder();
        folders.push(dir);
        const approved = await env.host.approve(action.id, dir);
        assert.equal(approved.status, 'completed', JSON.stringify(approved));
        assert.ok(approved.repository_id);

        const done = data(bob, await bob.get(`${V1}/host-actions/${action.id}`));
        assert.equal(done.status, 'completed');
        assert.equal(done.result.repository_id, approved.repository_id);
        assert.equal(done.result.name, `Holiday ${variant}`);
        assert.ok(done.completed_at);

        // The repository is there for the household, watched and scanned like any other; the photos are bob's.
        const repos = data(bob, await bob.get(`${V1}/repositories`)).repositories;
        assert.ok(repos.some((r: any) => r.id === approved.repository_id && r.name === `Holiday ${variant}` && r.reachability === 'active'));
        await waitFor('the folder is scanned', async () => {
          await env.srv.container.jobRunner.whenIdle();
          const rows = env.srv.container.db.prepare('SELECT owner_id FROM assets WHERE repository_id = ?').all(approved.repository_id) as { owner_id: number }[];
          return rows.length === 2 && rows.every((r) => r.owner_id === shown.requester.user_id);
        }, 60_000);
        assert.ok(env.srv.container.repositories.isWatching(approved.repository_id!), 'the new repository is watched');

        // Followed live: every transition reached the asking device.
        await waitFor('the completed event', () => events.some((e) => e.id === action.id && e.status === 'completed'));
        const seen = events.filter((e) => e.id === action.id).map((e) => e.status);
        assert.deepEqual(seen, ['pending', 'presented', 'running', 'completed']);
        assert.deepEqual(events.filter((e) => e.id === action.id).map((e) => e.version), [1, 2, 3, 4]);

        // A repeat of the key answers the original action even after it finished; another body is refused.
        const late = await ask(bob, body, key);
        assert.equal(late.status, 200);
        assert.equal(data(bob, late).status, 'completed');
        const other = await ask(bob, { ...body, name: 'Something else' }, key);
        assert.equal(other.status, 422);
        assert.equal(problem(bob, other).code, 'idempotency_key_reused');
      } finally {
        stop();
      }
    });

    test(`variant ${variant}: cancel, retry, deny, stale versions and repeated request ids`, async () => {
      const bob = speaking(env, env.bob, variant);
      const action = await askedIn(bob);

      const stale = await bob.post(`${V1}/host-actions/${action.id}/cancel?expected_version=7`);
      assert.equal(stale.status, 409);
      assert.equal(problem(bob, stale).code, 'stale_version');

      const cancelled = data(bob, await bob.post(`${V1}/host-actions/${action.id}/cancel?expected_version=1&request_id=c1`));
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.cancel_reason, 'member_cancelled');
      assert.equal(cancelled.version, 2);
      // The same request again changes nothing (the id was recorded), even with the version it saw then.
      assert.equal(data(bob, await bob.post(`${V1}/host-actions/${action.id}/cancel?expected_version=1&request_id=c1`)).version, 2);

      const approveCancelled = await env.host.approve(action.id, photoFolder()).catch((e) => e);
      assert.equal(approveCancelled.status, 409);
      assert.equal(approveCancelled.code, 'host_action_cancelled');

      const retried = data(bob, await bob.post(`${V1}/host-actions/${action.id}/retry?expected_version=2`));
      assert.equal(retried.status, 'pending');
      assert.equal(retried.version, 3);
      assert.equal(retried.cancel_reason, null);
      assert.equal(retried.code, action.code, 'the same code, so the asking device still matches');
      assert.ok(Date.parse(retried.expires_at) > Date.parse(cancelled.updated_at));

      const notRetryable = await bob.post(`${V1}/host-actions/${action.id}/retry`);
      assert.equal(notRetryable.status, 409);
      assert.equal(problem(bob, notRetryable).code, 'host_action_not_retryable');
      const noConflict = await bob.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'cancel' });
      assert.equal(noConflict.status, 409);
      assert.equal(problem(bob, noConflict).code, 'host_action_not_awaiting_decision');

      const denied = await env.host.deny(action.id);
      assert.equal(denied.status, 'cancelled');
      assert.equal(denied.cancel_reason, 'host_denied');
      assert.equal(data(bob, await bob.get(`${V1}/host-actions/${action.id}`)).cancel_reason, 'host_denied');
      assert.equal(data(bob, await bob.post(`${V1}/host-actions/${action.id}/retry`)).status, 'pending', 'a denied request may be asked again');

      // A create naming a version under a new key is stale (no action there yet).
      const staleCreate = await ask(bob, { expected_version: 3 });
      assert.equal(staleCreate.status, 409);
      assert.equal(problem(bob, staleCreate).code, 'stale_version');
    });

    test(`variant ${variant}: expiry on read, and by the sweep with nobody reading`, async () => {
      const bob = speaking(env, env.bob, variant);
      const db = env.srv.container.db;
      const read = await askedIn(bob);
      db.prepare('UPDATE host_actions SET expires_at = ? WHERE action_id = ?').run(Date.now() - 1, read.id);
      const expired = data(bob, await bob.get(`${V1}/host-actions/${read.id}`));
      assert.equal(expired.status, 'expired');
      const late = await env.host.approve(read.id, photoFolder()).catch((e) => e);
      assert.equal(late.code, 'host_action_expired');
      assert.equal(data(bob, await bob.post(`${V1}/host-actions/${read.id}/retry`)).status, 'pending', 'an expired request may be asked again');

      const swept = await askedIn(bob);
      db.prepare('UPDATE host_actions SET expires_at = ? WHERE action_id = ?').run(Date.now() - 1, swept.id);
      assert.ok(env.srv.container.hostActions.sweep() >= 1);
      assert.equal((db.prepare('SELECT status FROM host_actions WHERE action_id = ?').get(swept.id) as { status: string }).status, 'expired');
    });

    test(`variant ${variant}: a member reads only their own actions; an administrator lists all but opens only theirs`, async () => {
      const bob = speaking(env, env.bob, variant);
      const carol = speaking(env, env.carol, variant);
      const admin = speaking(env, env.admin, variant);
      const action = await askedIn(bob);
      for (const [who, c] of [['carol', carol], ['the administrator', admin]] as const) {
        for (const r of [
          await c.get(`${V1}/host-actions/${action.id}`),
          await c.post(`${V1}/host-actions/${action.id}/cancel`),
          await c.post(`${V1}/host-actions/${action.id}/retry`),
          await c.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'cancel' }),
        ]) {
          assert.equal(r.status, 404, `${who}: ${r.text}`);
          assert.equal(problem(c, r).code, 'host_action_not_found');
        }
      }
      assert.ok(!data(carol, await carol.get(`${V1}/host-actions`)).some((a: any) => a.actor.username !== 'carol'));
      assert.ok(data(admin, await admin.get(`${V1}/host-actions`)).some((a: any) => a.id === action.id));
      const pendingOnly = data(bob, await bob.get(`${V1}/host-actions?status=pending`));
      assert.ok(pendingOnly.length > 0 && pendingOnly.every((a: any) => a.status === 'pending'));
    });

    test(`variant ${variant}: bad requests are problems`, async () => {
      const bob = speaking(env, env.bob, variant);
      const noKey = await ask(bob, {}, null);
      assert.equal(noKey.status, 422);
      assert.ok(problem(bob, noKey).errors?.some((e) => e.field === 'header.idempotency-key'));
      const withPath = await ask(bob, { path: '/srv/photos' });
      assert.equal(withPath.status, 422, 'a body carrying a path is refused');
      assert.match(problem(bob, withPath).detail, /path/);
      assert.equal((await ask(bob, { folder: 'x' })).status, 422, 'any unknown field is refused');
      assert.equal((await ask(bob, { purpose: 'primary' })).status, 422, 'there is one primary repository');
      assert.equal((await ask(bob, { kind: 'format_disk' })).status, 422);
      assert.equal((await bob.get(`${V1}/host-actions/not-a-uuid`)).status, 422);
      const unknown = await bob.get(`${V1}/host-actions/${crypto.randomUUID()}`);
      assert.equal(unknown.status, 404);
      assert.equal(problem(bob, unknown).code, 'host_action_not_found');
    });
  }

  test('no answer to a member or the administrator ever named a folder path or the data folder', () => {
    assertNoPathIn(env.answers, [...folders, env.srv.dataDir]);
  });
});

async function askedIn(c: Client): Promise<any> {
  return asked(c);
}

/** Follows the member's stream (streamHostActions) into `events`; answers the stop. */
function follow(env: HostEnv, c: Client, events: any[]): () => void {
  const abort = new AbortController();
  void (async () => {
    const res = await fetch(`${env.srv.url}${V1}/host-actions/stream`, { headers: { authorization: `Bearer ${c.token}`, 'x-api-variant': c.variant }, signal: abort.signal });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        env.answers.push(block);
        if (/^event: host_action$/m.test(block)) events.push(JSON.parse(block.split('\n').find((l) => l.startsWith('data: '))!.slice(6)));
      }
    }
  })().catch(() => undefined);
  return () => abort.abort();
}

/**
 * The Agent group over real HTTP on the `agent` template library: off until an administrator turns it on,
 * then every operation in both response variants (JSON ones), the stream's event sequence for a tool call, a
 * confirmation, a resume (approve, approve again, decline), a cancel, a cancel racing a commit and a failure;
 * and the conversations' history (extensions: listAgentThreads, getAgentThread, deleteAgentThread).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { V1 } from '../helpers/api.ts';
import type { Client, TestServer } from '../helpers/server.ts';
import { agentServer, chat, data, enableAgent, interruptOf, lastRef, resume, said, sessionOf, toolsCalled } from './helpers.ts';

describe('the assistant’s operations', () => {
  let srv: TestServer;
  let alice: Client;
  let aliceB: Client;
  let bob: Client;
  before(async () => {
    ({ srv, alice, bob, aliceB } = await agentServer());
  });
  after(() => srv.stop({ removeData: true }));

  test('while off, the whole group answers 404 agent_disabled (after the sign-in check)', async () => {
    for (const [method, path] of [['GET', '/agent/tools'], ['GET', '/agent/pins'], ['GET', '/agent/tools/schemas'], ['POST', '/agent/chat']] as const) {
      const r = await alice.req(method, `${V1}${path}`, method === 'POST' ? { json: { query: 'show videos' } } : {});
      assert.equal(r.status, 404, `${path}: ${r.text}`);
      assert.equal(r.body.code, 'agent_disabled');
      const anon = await alice.req(method, `${V1}${path}`, { auth: false, ...(method === 'POST' ? { json: { query: 'x' } } : {}) });
      assert.equal(anon.status, 401, `anonymous ${path}`);
    }
    const caps = await alice.get(`${V1}/capabilities`);
    assert.equal(caps.body.llm.agent_enabled, false);
    await enableAgent(alice);
    assert.equal((await alice.get(`${V1}/capabilities`)).body.llm.agent_enabled, true);
    // A member cannot turn it on.
    assert.equal((await bob.patch(`${V1}/settings/system`, { llm: { agent_enabled: false } })).status, 403);
  });

  for (const variant of ['A', 'B'] as const) {
    test(`tools per mode and their schemas (variant ${variant})`, async () => {
      const c = variant === 'A' ? alice : aliceB;
      const all = data(await c.get(`${V1}/agent/tools`), variant).map((t: any) => t.name);
      assert.ok(all.includes('trash_assets') && all.includes('lookup_events') && all.includes('bulk_like_assets'));
      const review = data(await c.get(`${V1}/agent/tools?mode=review`), variant).map((t: any) => t.name);
      assert.deepEqual(review, ['filter_assets', 'search_people', 'lookup_people', 'rank', 'sample', 'describe', 'show']);
      const analyze = data(await c.get(`${V1}/agent/tools?mode=analyze`), variant).map((t: any) => t.name);
      assert.ok(analyze.includes('search_text') && !analyze.includes('create_album'));
      assert.deepEqual(data(await c.get(`${V1}/agent/tools?mode=nonsense`), variant).map((t: any) => t.name), all, 'an unknown mode lists every tool');
      const schemas = data(await c.get(`${V1}/agent/tools/schemas`), variant);
      const top = schemas.find((s: any) => s.name === 'top');
      assert.equal(top.parameters.type, 'object');
      assert.deepEqual(top.parameters.required, ['ref', 'n']);
      assert.equal(schemas.find((s: any) => s.name === 'create_album').confirmation, true);
    });
  }

  test('a tool call streams session_info, run_status, the tool’s side events, a card, text and done; the ref and its assets read in both variants', async () => {
    const { status, type, events } = await chat(alice, { query: 'show videos' });
    assert.equal(status, 200);
    assert.match(type, /text\/event-stream/);
    const names = events.map((e) => e.event);
    assert.equal(names[0], 'session_info');
    assert.deepEqual(events[1], { event: 'run_status', data: { run_id: sessionOf(events).run_id, status: 'running' } });
    assert.equal(names.at(-1), 'done');
    assert.equal(events.at(-2)!.event, 'run_status');
    assert.equal(events.at(-2)!.data.status, 'completed');
    assert.deepEqual(toolsCalled(events), ['filter_assets', 'show']);
    const exec = events.filter((e) => e.event === 'side_event' && e.data.tool?.name === 'filter_assets');
    assert.deepEqual(exec.map((e) => e.data.execution.status), ['running', 'success']);
    assert.deepEqual(exec[0]!.data.execution.parameters, { query: 'videos' });
    assert.equal(typeof exec[1]!.data.execution.duration, 'number');
    const card = events.find((e) => e.event === 'side_event' && e.data.type === 'widget_show')!;
    assert.equal(card.data.data.widget, 'cover_card');
    assert.equal(card.data.data.count, 1);
    assert.match(said(events), /I found 1 item/);

    const { thread_id } = sessionOf(events);
    const { ref } = lastRef(events);
    for (const [c, v] of [[alice, 'A'], [aliceB, 'B']] as const) {
      const meta = data(await c.get(`${V1}/agent/refs/${ref}?thread_id=${thread_id}`), v);
      assert.equal(meta.count, 1);
      assert.deepEqual(meta.facets.types, { VIDEO: 1 });
      const assets = data(await c.get(`${V1}/agent/refs/${ref}/assets?thread_id=${thread_id}&limit=10`), v);
      assert.equal(assets.total, 1);
      assert.equal(assets.assets[0].asset_id, srv.template!.assets.video);
      assert.deepEqual(assets.pagination, { limit: 10, offset: 0 });
    }
    // Another member: the thread is not theirs (404, as if it did not exist).
    const foreign = await bob.get(`${V1}/agent/refs/${ref}?thread_id=${thread_id}`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'agent_thread_not_found');
    assert.equal((await alice.get(`${V1}/agent/refs/r999?thread_id=${thread_id}`)).body.code, 'agent_ref_not_found');
    assert.equal((await alice.get(`${V1}/agent/refs/nonsense?thread_id=${thread_id}`)).status, 422);
    assert.equal((await alice.get(`${V1}/agent/refs/${ref}`)).status, 422, 'thread_id is required');
  });

  test('pins: made from a ref, listed in creation order, read, renamed, laid out, queried, searched and deleted (both variants)', async () => {
    const { events } = await chat(alice, { query: 'photos from 2008' });
    const { thread_id } = sessionOf(events);
    const { ref, count } = lastRef(events);
    assert.equal(count, 6, 'five 2008 cameras and the Coolpix in Tuscany');
    for (const [c, v] of [[alice, 'A'], [aliceB, 'B']] as const) {
      const pin = data(await c.post(`${V1}/agent/pins`, { thread_id, ref_id: ref, title: `2008 ${v}` }), v);
      assert.equal(pin.mode, 'live', 'a filter replays');
      assert.equal(pin.count, 6);
      assert.deepEqual(pin.layout.w, 4);
      const list = data(await c.get(`${V1}/agent/pins`), v);
      assert.equal(list.at(-1).pin_id, pin.pin_id);
      assert.equal(data(await c.get(`${V1}/agent/pins/${pin.pin_id}`), v).title, `2008 ${v}`);
      assert.equal(data(await c.patch(`${V1}/agent/pins/${pin.pin_id}`, { title: 'Renamed', widget: 'mosaic_card' }), v).message, 'Pin updated.');
      const again = data(await c.get(`${V1}/agent/pins/${pin.pin_id}`), v);
      assert.deepEqual([again.title, again.widget], ['Renamed', 'mosaic_card']);
      assert.equal(data(await c.patch(`${V1}/agent/pins/layout`, { pins: [{ pin_id: pin.pin_id, layout: { x: 8, y: 0, w: 4, h: 2 } }] }), v).message, 'Laid out 1 pin.');
      assert.deepEqual(data(await c.get(`${V1}/agent/pins/${pin.pin_id}`), v).layout, { x: 8, y: 0, w: 4, h: 2 });
      const assets = data(await c.get(`${V1}/agent/pins/${pin.pin_id}/assets?limit=2&offset=1`), v);
      assert.equal(assets.total, 6);
      assert.equal(assets.assets.length, 2);
      const listed = data(await c.post(`${V1}/agent/pins/${pin.pin_id}/assets/list`, { filter: { camera_make: 'Canon' } }), v);
      assert.equal(listed.total_media_items, 2, 'the two Canons of 2008');
      const searched = data(await c.post(`${V1}/agent/pins/${pin.pin_id}/assets/search`, { query: 'canon40d' }), v);
      assert.deepEqual(searched.result_items.map((i: any) => i.media_item.primary_asset.asset_id), [srv.template!.assets.canon40d]);
      assert.equal(data(await c.req('DELETE', `${V1}/agent/pins/${pin.pin_id}`), v).message, 'Pin deleted.');
      assert.equal((await c.get(`${V1}/agent/pins/${pin.pin_id}`)).status, 404);
    }
    const pin = (await alice.post(`${V1}/agent/pins`, { thread_id, ref_id: ref })).body;
    // Bob reaches none of it.
    for (const r of [await bob.get(`${V1}/agent/pins/${pin.pin_id}`), await bob.get(`${V1}/agent/pins/${pin.pin_id}/assets`), await bob.patch(`${V1}/agent/pins/${pin.pin_id}`, { title: 'x' }), await bob.req('DELETE', `${V1}/agent/pins/${pin.pin_id}`)]) {
      assert.equal(r.status, 404);
      assert.equal(r.body.code, 'agent_pin_not_found');
    }
    assert.equal((await bob.patch(`${V1}/agent/pins/layout`, { pins: [{ pin_id: pin.pin_id, layout: { x: 0, y: 0, w: 4, h: 4 } }] })).status, 404);
    assert.deepEqual((await bob.get(`${V1}/agent/pins`)).body, []);
    assert.equal((await alice.post(`${V1}/agent/pins`, { thread_id, ref_id: 'r999' })).body.code, 'agent_ref_not_found');
    assert.equal((await alice.patch(`${V1}/agent/pins/layout`, { pins: [{ pin_id: pin.pin_id, layout: { x: 10, y: 0, w: 4, h: 4 } }] })).status, 422, 'x + w > 12');
    // A transformed ref is frozen whatever is asked.
    const best = await chat(alice, { query: 'best 2 photos from 2008' });
    const frozen = (await alice.post(`${V1}/agent/pins`, { thread_id: sessionOf(best.events).thread_id, ref_id: lastRef(best.events).ref, mode: 'live' })).body;
    assert.deepEqual([frozen.mode, frozen.fallback_reason, frozen.count], ['frozen', 'not_replayable', 2]);
  });

  test('a confirmation: the run waits, the effect is pending; approving commits once, approving again answers the first receipt; declining changes nothing', async () => {
    const asked = await chat(alice, { query: 'make an album called "Summer 2008" of photos from summer 2008' });
    const action = interruptOf(asked.events);
    const { thread_id, run_id } = sessionOf(asked.events);
    assert.deepEqual(toolsCalled(asked.events), ['filter_assets', 'create_album']);
    assert.equal(action.confirmation.album_name, 'Summer 2008');
    assert.equal(action.confirmation.count, 1);
    assert.equal(asked.events.at(-2)!.data.status, 'awaiting_confirmation');
    assert.equal(asked.events.at(-1)!.event, 'done');
    for (const [c, v] of [[alice, 'A'], [aliceB, 'B']] as const) assert.equal(data(await c.get(`${V1}/agent/effects/${action.effect_id}?thread_id=${thread_id}`), v).status, 'pending');
    // One run at a time: another message waits for the answer.
    const busy = await chat(alice, { thread_id, query: 'show videos' });
    assert.equal(busy.status, 409);
    assert.equal(JSON.parse(busy.text).code, 'agent_run_active');

    const yes = await resume(alice, { thread_id, targets: { [action.interrupt_id]: { approved: true } } });
    const receipt = yes.events.find((e) => e.event === 'side_event')!.data.data.receipt;
    assert.equal(receipt.status, 'committed');
    assert.equal(receipt.count, 1);
    assert.ok(receipt.album_id);
    assert.deepEqual(yes.events.map((e) => e.event).slice(-2), ['run_status', 'done']);
    assert.equal(yes.events.at(-2)!.data.status, 'completed');
    const album = (await alice.get(`${V1}/albums/${receipt.album_id}/assets`)).body;
    assert.deepEqual(album.assets.map((a: any) => a.asset_id), [srv.template!.assets.panasonic]);
    const twice = await resume(alice, { thread_id, run_id, targets: { [action.interrupt_id]: { approved: true } } });
    const second = twice.events.find((e) => e.event === 'side_event')!.data.data.receipt;
    assert.deepEqual({ ...second, already_committed: undefined }, { ...receipt, already_committed: undefined });
    assert.equal(second.already_committed, true);
    const albums = (await alice.get(`${V1}/albums?limit=100`)).body.albums.filter((a: any) => a.album_name === 'Summer 2008');
    assert.equal(albums.length, 1, 'committed once');
    const status = (await alice.get(`${V1}/agent/effects/${action.effect_id}?thread_id=${thread_id}`)).body;
    assert.equal(status.status, 'committed');
    assert.equal(status.receipt.album_id, receipt.album_id);

    const tagAsk = await chat(alice, { thread_id, query: 'tag videos as clip' });
    const tagAction = interruptOf(tagAsk.events);
    assert.deepEqual(tagAction.confirmation.tags, ['clip']);
    const no = await resume(alice, { thread_id, targets: { [tagAction.interrupt_id]: { approved: false } } });
    assert.equal(no.events.find((e) => e.event === 'side_event')!.data.data.receipt.status, 'rejected');
    assert.match(said(no.events), /Declined: nothing was changed/);
    const tags = (await alice.get(`${V1}/assets/${srv.template!.assets.video}/tags`)).body.tags;
    assert.deepEqual(tags.filter((t: any) => t.tag_name === 'clip'), []);
    // Bob cannot see or answer alice's confirmation.
    assert.equal((await bob.get(`${V1}/agent/effects/${tagAction.effect_id}?thread_id=${thread_id}`)).status, 404);
    const bobResume = await resume(bob, { thread_id, targets: { [tagAction.interrupt_id]: { approved: true } } });
    assert.equal(bobResume.status, 404);
  });

  test('a cancel while waiting cancels the effect; a cancel racing a commit has one answer, decided at the commit', async () => {
    const asked = await chat(alice, { query: 'like photos from 2008' });
    const action = interruptOf(asked.events);
    const { thread_id, run_id } = sessionOf(asked.events);
    const cancel = await alice.post(`${V1}/agent/chat/cancel`, { thread_id, run_id });
    assert.deepEqual(cancel.body, { run_id, status: 'cancel_requested', thread_id });
    assert.equal((await alice.get(`${V1}/agent/effects/${action.effect_id}?thread_id=${thread_id}`)).body.status, 'cancelled');
    const late = await resume(alice, { thread_id, targets: { [action.interrupt_id]: { approved: true } } });
    assert.match(said(late.events), /cancelled before it was confirmed/);
    assert.equal((await alice.get(`${V1}/assets/${srv.template!.assets.canon40d}`)).body.liked, false, 'nothing was liked');
    // The thread goes on.
    assert.equal((await chat(alice, { thread_id, query: 'show videos' })).status, 200);

    // The race: approve and cancel at once, several times; each time the effect's status and the library agree.
    for (let i = 0; i < 4; i++) {
      const a = await chat(alice, { query: `tag videos as race${i}` });
      const act = interruptOf(a.events);
      const s = sessionOf(a.events);
      const [yes] = await Promise.all([resume(alice, { thread_id: s.thread_id, targets: { [act.interrupt_id]: { approved: true } } }), alice.post(`${V1}/agent/chat/cancel`, { thread_id: s.thread_id, run_id: s.run_id })]);
      const st = (await alice.get(`${V1}/agent/effects/${act.effect_id}?thread_id=${s.thread_id}`)).body.status;
      assert.ok(['committed', 'cancelled'].includes(st), st);
      const tagged = (await alice.get(`${V1}/assets/${srv.template!.assets.video}/tags`)).body.tags.some((t: any) => t.tag_name === `race${i}`);
      assert.equal(tagged, st === 'committed', `status ${st}, tagged ${tagged}`);
      assert.equal(yes.events.at(-1)!.event, 'done');
    }
    assert.equal((await alice.post(`${V1}/agent/chat/cancel`, { thread_id, run_id: '00000000-0000-4000-8000-000000000000' })).body.code, 'agent_run_not_found');
    assert.equal((await bob.post(`${V1}/agent/chat/cancel`, { thread_id, run_id })).body.code, 'agent_thread_not_found');
  });

  test('a failure: a commit that cannot be made rolls back, and the stream says error, then done; the thread stays usable', async () => {
    const album = (await alice.post(`${V1}/albums`, { album_name: 'Soon gone' })).body;
    const asked = await chat(alice, { query: `add videos to the album Soon gone` });
    assert.deepEqual(toolsCalled(asked.events), ['lookup_albums', 'filter_assets', 'add_to_album']);
    const action = interruptOf(asked.events);
    const { thread_id } = sessionOf(asked.events);
    assert.equal((await alice.req('DELETE', `${V1}/albums/${album.album_id}`)).status, 200);
    const r = await resume(alice, { thread_id, targets: { [action.interrupt_id]: { approved: true } } });
    const names = r.events.map((e) => e.event);
    assert.deepEqual(names.slice(-3), ['error', 'run_status', 'done']);
    assert.equal(r.events.at(-2)!.data.status, 'failed');
    assert.equal((await alice.get(`${V1}/agent/effects/${action.effect_id}?thread_id=${thread_id}`)).body.status, 'failed');
    const next = await chat(alice, { thread_id, query: 'how many videos' });
    assert.equal(next.events.at(-2)!.data.status, 'completed');
  });

  test('bad input: oversized messages, unknown threads, a tool outside its schema or mode, mentions that do not resolve', async () => {
    const big = await chat(alice, { query: 'x'.repeat(4001) });
    assert.equal(big.status, 422);
    assert.match(big.type, /problem\+json/);
    assert.equal((await chat(alice, {})).status, 422);
    assert.equal((await chat(alice, { query: 'hi', extra: 1 })).status, 422);
    const unknown = await chat(alice, { thread_id: '00000000-0000-4000-8000-000000000000', query: 'hi' });
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse(unknown.text).code, 'agent_thread_not_found');
    const first = await chat(alice, { query: 'show videos' });
    const foreign = await chat(bob, { thread_id: sessionOf(first.events).thread_id, query: 'show videos' });
    assert.equal(foreign.status, 404, "bob cannot write in alice's thread");

    const bad = await chat(alice, { tool_call: { name: 'top', arguments: { ref: 'r1', n: -3 } } });
    const err = bad.events.find((e) => e.event === 'side_event' && e.data.execution?.status === 'error')!;
    assert.equal(err.data.execution.error.code, 'invalid_arguments');
    assert.match(err.data.execution.error.message, /n:/);
    assert.equal(bad.events.at(-1)!.event, 'done');
    const notInMode = await chat(alice, { mode: 'review', tool_call: { name: 'create_album', arguments: { ref: 'r1', name: 'x' } } });
    assert.equal(notInMode.events.find((e) => e.event === 'side_event' && e.data.execution?.status === 'error')!.data.execution.error.code, 'unknown_tool');
    const noRef = await chat(alice, { tool_call: { name: 'describe', arguments: { ref: 'r42' } } });
    assert.equal(noRef.events.find((e) => e.event === 'side_event' && e.data.execution?.status === 'error')!.data.execution.error.code, 'agent_ref_not_found');

    const m = await chat(alice, { query: 'show @Nobody photos', mentions: [{ type: 'album', id: 999999 }, { type: 'lens', label: 'x' }] });
    assert.deepEqual(sessionOf(m.events).dropped_mentions!.map((d: any) => [d.type, d.reason]), [['album', 'not_found'], ['lens', 'unsupported'], ['person', 'not_found']]);
  });

  for (const variant of ['A', 'B'] as const) {
    test(`conversations: listed latest first, reopened with their messages and the confirmation still waiting, forgotten with their pins kept (variant ${variant})`, async () => {
      const c = variant === 'A' ? alice : aliceB;
      const shown = await chat(alice, { query: 'show videos' });
      const { thread_id } = sessionOf(shown.events);
      const { ref } = lastRef(shown.events);
      const pin = await alice.post(`${V1}/agent/pins`, { thread_id, ref_id: ref, title: 'Kept videos' });
      assert.equal(pin.status, 200, pin.text);
      const asked = await chat(alice, { thread_id, query: 'make an album called "Reopened" of videos' });
      const action = interruptOf(asked.events);

      const list = data(await c.get(`${V1}/agent/threads?limit=2`), variant);
      assert.equal(list.threads[0].thread_id, thread_id, 'the latest first');
      assert.equal(list.threads[0].status, 'awaiting_confirmation');
      assert.equal(list.threads[0].title, 'show videos');
      assert.ok(list.total >= list.threads.length && list.threads.length <= 2);
      assert.deepEqual(list.pagination, { limit: 2, offset: 0 });

      const one = data(await c.get(`${V1}/agent/threads/${thread_id}`), variant);
      assert.deepEqual(one.messages.filter((m: any) => m.role === 'user').map((m: any) => m.text), ['show videos', 'make an album called "Reopened" of videos']);
      const receipt = one.messages.find((m: any) => m.role === 'tool' && m.tool.name === 'filter_assets');
      assert.equal(receipt.tool.ref_id, ref);
      // A card shown keeps its widget and title with its receipt (the panel shows it again while the ref lives).
      const card = one.messages.find((m: any) => m.role === 'tool' && m.tool.name === 'show');
      assert.deepEqual([card.tool.ref_id, card.tool.widget, typeof card.tool.title], [ref, 'cover_card', 'string']);
      assert.ok(one.messages.some((m: any) => m.role === 'assistant' && m.text), 'the assistant’s words');
      assert.equal(one.total_messages, one.messages.length);
      assert.equal(one.active_run.status, 'awaiting_confirmation');
      assert.deepEqual(one.pending.map((p: any) => [p.interrupt_id, p.tool_name, p.confirmation.album_name]), [[action.interrupt_id, 'create_album', 'Reopened']]);

      // Someone else's conversation is not there for bob.
      for (const r of [await bob.get(`${V1}/agent/threads/${thread_id}`), await bob.req('DELETE', `${V1}/agent/threads/${thread_id}`)]) {
        assert.equal(r.status, 404);
        assert.equal(r.body.code, 'agent_thread_not_found');
      }
      assert.ok(!(await bob.get(`${V1}/agent/threads`)).body.threads.some((t: any) => t.thread_id === thread_id));

      // Forgotten: the waiting album is never made, the pin stays, the id is gone.
      const gone = await c.req('DELETE', `${V1}/agent/threads/${thread_id}`);
      assert.equal(gone.status, 200, gone.text);
      assert.equal((await alice.get(`${V1}/agent/threads/${thread_id}`)).status, 404);
      assert.equal((await resume(alice, { thread_id, targets: { [action.interrupt_id]: { approved: true } } })).status, 404);
      assert.ok(!(await alice.get(`${V1}/albums?limit=100`)).body.albums.some((a: any) => a.album_name === 'Reopened'));
      assert.equal((await alice.get(`${V1}/agent/pins/${pin.body.pin_id}`)).body.title, 'Kept videos');
    });
  }

  test('conversations: bad ids and pages are refused in words', async () => {
    assert.equal((await alice.get(`${V1}/agent/threads/not-a-uuid`)).status, 422);
    assert.equal((await alice.get(`${V1}/agent/threads/00000000-0000-4000-8000-000000000000`)).body.code, 'agent_thread_not_found');
    const big = await alice.get(`${V1}/agent/threads?limit=1000`);
    assert.equal(big.status, 422);
    assert.match(big.headers.get('content-type') ?? '', /problem\+json/);
  });
});

/**
 * The deterministic planner on the `agent` library (alice's: 2007 Sony; 2008 Nikon D70 15 Mar, Pentax 4 May,
 * Canon G9 25 May, Canon 40D 30 May, Panasonic 16 Jul, Coolpix 22 Oct in Tuscany; 2009 Canon 500D; 2014
 * Olympus 23 Aug; 2017 a video in London; 2018 Olympus; 2023 Big Ben, Canon R5): requests in English, each
 * with the plan it must make (the tools called, in order) and the count of its answer; requests it must
 * decline; and ownership (bob's photos never enter alice's refs, cards or pins, until he shares them).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { V1 } from '../helpers/api.ts';
import type { Client, TestServer } from '../helpers/server.ts';
import { agentServer, chat, enableAgent, interruptOf, lastRef, said, sessionOf, toolsCalled } from './helpers.ts';

interface Case {
  ask: string;
  plan: string[];
  /** The answer's set (its card, or the effect's confirmation). */
  count?: number;
  says?: RegExp;
  mode?: string;
  confirm?: Record<string, unknown>;
}

const FIND = ['filter_assets', 'show'];
const COUNT = ['filter_assets', 'describe', 'show'];

const CASES: Case[] = [
  // find and show, with dates (the search feature's parser, and "the weekend of")
  { ask: 'show videos', plan: FIND, count: 1 },
  { ask: 'show videos from 2017', plan: FIND, count: 1 },
  { ask: 'show videos from 2019', plan: ['filter_assets'], says: /found nothing/ },
  { ask: 'photos from 2008', plan: FIND, count: 6 },
  { ask: 'show photos in 2009', plan: FIND, count: 1 },
  { ask: 'find photos from summer 2008', plan: FIND, count: 1 },
  { ask: 'photos from summer 2014', plan: FIND, count: 1 },
  { ask: 'photos from May 2008', plan: FIND, count: 3 },
  { ask: 'photos from Christmas 2022', plan: ['filter_assets'], says: /found nothing/ },
  { ask: 'show me photos from 2007', plan: FIND, count: 1 },
  { ask: 'photos between 2008 and 2009', plan: FIND, count: 7 },
  { ask: 'find photos in 2018', plan: FIND, count: 1 },
  { ask: 'show photos from last summer', plan: ['filter_assets'], says: /found nothing/ },
  { ask: 'show photos from the weekend of 25 May 2008', plan: FIND, count: 1 },
  { ask: 'photos from the weekend of July 4 2009', plan: ['filter_assets'], says: /found nothing/ },
  // cameras, places, words
  { ask: 'photos taken with the Canon EOS 40D', plan: FIND, count: 1 },
  { ask: 'show photos with Canon', plan: FIND, count: 4 },
  { ask: 'show canon40d', plan: ['filter_assets', 'search_semantic', 'show'], count: 1, says: /did not understand "canon40d"/ },
  { ask: 'find the train ticket', plan: ['filter_assets', 'search_semantic'], says: /did not understand "train ticket".* I found nothing/ },
  { ask: 'show beach videos from 2017', plan: ['filter_assets', 'search_semantic', 'combine'], says: /did not understand "beach".*within Videos/ },
  // count and describe
  { ask: 'how many videos', plan: COUNT, count: 1, says: /1 in all: 1 video on 2017-02-22/ },
  { ask: 'count photos from 2008', plan: COUNT, count: 6, says: /6 in all: 6 photos from 2008-03-15 to 2008-10-22/ },
  { ask: 'How many photos did we take in 2023, and with which camera?', plan: COUNT, count: 1, says: /Cameras: Canon EOS R5 \(1\)/ },
  { ask: 'describe photos from May 2008', plan: COUNT, count: 3, says: /2008-05-04 to 2008-05-30/ },
  { ask: 'how many photos from 2014', plan: COUNT, count: 1 },
  // compare and who
  { ask: 'compare 2008 and 2009', plan: ['filter_assets', 'describe', 'show', 'filter_assets', 'describe', 'show'], says: /2008: 6 .*2009: 1 .*5 more in 2008/ },
  { ask: 'compare cameras in May 2008', plan: ['filter_assets', 'describe'], says: /By camera: .*Canon EOS 40D 1/ },
  { ask: 'who is in the photos from 2008', plan: ['filter_assets', 'describe'], says: /nobody you have named/ },
  // best N, one per day or place
  { ask: 'best 3 photos from 2008', plan: ['filter_assets', 'rank', 'top', 'show'], count: 3 },
  { ask: 'top five photos', plan: ['filter_assets', 'rank', 'top', 'show'], count: 5 },
  { ask: 'best photos from 2008, one per day', plan: ['filter_assets', 'sample', 'show'], count: 6 },
  { ask: 'best photos from 2008, one per place', plan: ['filter_assets', 'sample', 'show'], count: 2 },
  // effects: each asks first
  { ask: 'make an album of videos', plan: ['filter_assets', 'create_album'], confirm: { count: 1, album_name: 'Videos' } },
  { ask: 'make an album "Best of 2008" of the best 3 photos from 2008', plan: ['filter_assets', 'rank', 'top', 'create_album'], confirm: { count: 3, album_name: 'Best of 2008' } },
  { ask: 'create an album named Trip from photos from summer 2014', plan: ['filter_assets', 'create_album'], confirm: { count: 1, album_name: 'Trip' } },
  { ask: 'Make an album of the best photos from 2008, one per day', plan: ['filter_assets', 'sample', 'create_album'], confirm: { count: 6 } },
  { ask: 'tag photos from May 2008 as spring, family', plan: ['filter_assets', 'tag_assets'], confirm: { count: 3, tags: ['spring', 'family'] } },
  { ask: 'like videos', plan: ['filter_assets', 'bulk_like_assets'], confirm: { count: 1, liked: true } },
  { ask: 'move videos to the trash', plan: ['filter_assets', 'trash_assets'], confirm: { count: 1, trash: true } },
  // declines
  { ask: 'delete all my photos', plan: [], says: /never delete photos/ },
  { ask: 'crop the photos from 2008', plan: [], says: /cannot change the pictures/ },
  { ask: 'email the videos to grandma', plan: [], says: /cannot send or share/ },
  { ask: "what's the weather tomorrow", plan: [], says: /only know your photo library/ },
  { ask: 'make an album of videos', mode: 'review', plan: [], says: /cannot make albums in this mode/ },
];

describe('the deterministic planner', () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  before(async () => {
    ({ srv, alice, bob } = await agentServer());
    await enableAgent(alice);
  });
  after(() => srv.stop({ removeData: true }));

  test('an occasion named by its event’s title: its photos, narrowed by the other words; an unknown one is read as before', async () => {
    // alice's events are found (a rebuild, as the server runs after photos arrive), and the household named one of
    // them (its title set by hand, as the Events page does).
    const me = await alice.get(`${V1}/auth/me`);
    await srv.container.photoEvents.rebuild(me.body.user_id, 'test-rebuild');
    const listed = await alice.get(`${V1}/events`);
    assert.equal(listed.status, 200, listed.text);
    const event = (listed.body.events as { event_id: string; media_count: number }[]).sort((a, b) => b.media_count - a.media_count)[0]!;
    assert.ok(event && event.media_count >= 1, 'the agent library has events');
    const named = await alice.patch(`${V1}/events/${event.event_id}`, { title_override: "Grandma's 80th birthday" });
    assert.equal(named.status, 200, named.text);

    const show = await chat(alice, { query: "show the photos from grandma's 80th birthday" });
    assert.deepEqual(toolsCalled(show.events), ['lookup_events', 'search_events', 'show']);
    assert.equal(lastRef(show.events).count, event.media_count);

    const who = await chat(alice, { query: "Who is in the photos from Grandma’s 80th birthday?" });
    assert.deepEqual(toolsCalled(who.events).slice(0, 2), ['lookup_events', 'search_events']);

    // The same words with a type: the event's photos that are videos (filter_assets, then the intersection).
    const videos = await chat(alice, { query: "show videos from grandma's 80th birthday" });
    assert.deepEqual(toolsCalled(videos.events).slice(0, 3), ['lookup_events', 'search_events', 'filter_assets']);

    // An occasion no event is called: looked up, not found, and the words read as a set as before.
    const unknown = await chat(alice, { query: 'show photos from the office party' });
    assert.deepEqual(toolsCalled(unknown.events).slice(0, 2), ['lookup_events', 'filter_assets']);
  });

  test(`${CASES.length} requests give their plans and counts`, async () => {
    assert.ok(CASES.length >= 40);
    const failures: string[] = [];
    for (const c of CASES) {
      const { events, status } = await chat(alice, { query: c.ask, ...(c.mode ? { mode: c.mode } : {}) });
      assert.equal(status, 200, c.ask);
      const plan = toolsCalled(events);
      const text = said(events);
      const problems: string[] = [];
      if (JSON.stringify(plan) !== JSON.stringify(c.plan)) problems.push(`plan ${JSON.stringify(plan)}`);
      if (c.count !== undefined && lastRef(events).count !== c.count) problems.push(`count ${lastRef(events).count}`);
      if (c.says && !c.says.test(text)) problems.push(`said "${text}"`);
      if (c.confirm) {
        const action = interruptOf(events);
        for (const [k, v] of Object.entries(c.confirm)) if (JSON.stringify(action.confirmation[k]) !== JSON.stringify(v)) problems.push(`confirmation ${k} ${JSON.stringify(action.confirmation[k])}`);
        // Nothing changes until the member says yes: cancel it.
        const s = sessionOf(events);
        await alice.post(`${V1}/agent/chat/cancel`, { thread_id: s.thread_id, run_id: s.run_id });
      }
      if (events.some((e) => e.event === 'error')) problems.push('an error event');
      if (events.at(-1)?.event !== 'done') problems.push('no done');
      if (problems.length) failures.push(`${c.ask}: ${problems.join('; ')}`);
    }
    assert.deepEqual(failures, []);
    // Nothing was changed by any of them (every effect was cancelled).
    assert.equal((await alice.get(`${V1}/assets/${srv.template!.assets.video}`)).body.liked, false);
  });

  test('follow-ups: "them", "these", "of them" name the last set of the conversation; with none yet, it asks which', async () => {
    const failures: string[] = [];
    const turns: { first: string; then: string; plan: string[]; count?: number; confirm?: Record<string, unknown> }[] = [
      { first: 'show videos from 2017', then: 'make an album of them', plan: ['create_album'], confirm: { count: 1, album_name: 'Videos from 2017' } },
      { first: 'photos from May 2008', then: 'tag these as spring', plan: ['tag_assets'], confirm: { count: 3, tags: ['spring'] } },
      { first: 'photos from 2008', then: 'how many of them', plan: ['describe', 'show'], count: 6 },
      { first: 'photos from 2008', then: 'show the best 2 of them', plan: ['rank', 'top', 'show'], count: 2 },
      { first: 'show videos', then: 'like it', plan: ['bulk_like_assets'], confirm: { count: 1, liked: true } },
    ];
    for (const t of turns) {
      const first = await chat(alice, { query: t.first });
      const { thread_id } = sessionOf(first.events);
      const { events } = await chat(alice, { thread_id, query: t.then });
      const problems: string[] = [];
      if (JSON.stringify(toolsCalled(events)) !== JSON.stringify(t.plan)) problems.push(`plan ${JSON.stringify(toolsCalled(events))}`);
      if (t.count !== undefined && lastRef(events).count !== t.count) problems.push(`count ${lastRef(events).count}`);
      if (t.confirm) {
        const action = interruptOf(events);
        for (const [k, v] of Object.entries(t.confirm)) if (JSON.stringify(action.confirmation[k]) !== JSON.stringify(v)) problems.push(`confirmation ${k} ${JSON.stringify(action.confirmation[k])}`);
        const s = sessionOf(events);
        await alice.post(`${V1}/agent/chat/cancel`, { thread_id: s.thread_id, run_id: s.run_id });
      }
      if (problems.length) failures.push(`${t.first} → ${t.then}: ${problems.join('; ')}`);
    }
    assert.deepEqual(failures, []);
    const alone = await chat(alice, { query: 'make an album of them' });
    assert.deepEqual(toolsCalled(alone.events), []);
    assert.match(said(alone.events), /not shown you any photos in this conversation yet/);
    // A new conversation about a photo ("Ask about this"): "this" is that photo, not a set shown before.
    const about = await chat(alice, { query: 'describe this', context: [{ type: 'assets', asset_ids: [srv.template!.assets.video!], label: 'the video' }] });
    assert.deepEqual([toolsCalled(about.events).includes('describe'), lastRef(about.events).count], [true, 1]);
    // In a conversation that showed other photos, the photo pointed at is still what "this" means.
    const shown = await chat(alice, { query: 'photos from 2008' });
    const pointed = await chat(alice, { thread_id: sessionOf(shown.events).thread_id, query: 'describe this', context: [{ type: 'assets', asset_ids: [srv.template!.assets.video!], label: 'the video' }] });
    assert.deepEqual(toolsCalled(pointed.events), ['describe', 'show']);
    assert.equal(lastRef(pointed.events).count, 1);
  });

  test("another member's photos never enter a ref, a card or a pin (by search, id or mention); a partner's shared ones do", async () => {
    // Bob's 2004 IXUS: not alice's, not shared.
    const before = await chat(alice, { query: 'photos from 2004' });
    assert.match(said(before.events), /found nothing/);
    const byName = await chat(alice, { query: 'show ixus' });
    assert.match(said(byName.events), /found nothing/, 'a search never reaches bob’s file names');
    const byId = await chat(alice, { query: 'how many photos', context: [{ type: 'assets', asset_ids: [srv.template!.assets.bobIxus, srv.template!.assets.video] }] });
    assert.deepEqual(sessionOf(byId.events).dropped_mentions!.map((d: any) => [d.type, d.reason]), [['context', '1 not found']]);
    const ctxRef = byId.events.find((e) => e.event === 'side_event' && e.data.type === 'tool_execution' && e.data.execution.status === 'success' && e.data.tool.name === 'combine');
    assert.equal(ctxRef?.data.data.count, 0, 'the context ref holds the video only, and it is no photo');
    const bobAlbum = (await bob.post(`${V1}/albums`, { album_name: 'Bobs' })).body;
    const byMention = await chat(alice, { query: 'show photos', mentions: [{ type: 'album', id: bobAlbum.album_id }] });
    assert.deepEqual(sessionOf(byMention.events).dropped_mentions!.map((d: any) => d.reason), ['not_found']);
    // Bob shares his library with alice, and she shows it in her timeline: now his 2004 photo is in her answers.
    const share = (await bob.post(`${V1}/partner-shares`, { partner_user_id: srv.template!.users.alice!.id })).body;
    assert.equal((await alice.put(`${V1}/partner-shares/${share.share_id}`, { show_in_timeline: true })).status, 200);
    const after = await chat(alice, { query: 'photos from 2004' });
    const { ref, count } = lastRef(after.events);
    assert.equal(count, 1);
    const { thread_id } = sessionOf(after.events);
    const assets = (await alice.get(`${V1}/agent/refs/${ref}/assets?thread_id=${thread_id}`)).body.assets;
    assert.deepEqual(assets.map((a: any) => a.asset_id), [srv.template!.assets.bobIxus]);
    const pin = (await alice.post(`${V1}/agent/pins`, { thread_id, ref_id: ref })).body;
    assert.equal(pin.count, 1);
    // A partner's photo can be shown, not changed: tagging it commits for none of them.
    const tag = await chat(alice, { thread_id, query: 'tag photos from 2004 as old' });
    const action = interruptOf(tag.events);
    const { resume } = await import('./helpers.ts');
    const yes = await resume(alice, { thread_id, targets: { [action.interrupt_id]: { approved: true } } });
    const receipt = yes.events.find((e) => e.event === 'side_event')!.data.data.receipt;
    assert.equal(receipt.count, 0);
    assert.match(receipt.message, /left out/);
    // The share ends: the pin and the ref no longer show bob's photo.
    assert.equal((await bob.req('DELETE', `${V1}/partner-shares/${share.share_id}`)).status, 200);
    assert.equal((await alice.get(`${V1}/agent/pins/${pin.pin_id}`)).body.count, 0);
    assert.equal((await alice.get(`${V1}/agent/refs/${ref}/assets?thread_id=${thread_id}`)).body.total, 0);
  });
});

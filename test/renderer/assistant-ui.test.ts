/**
 * The assistant panel's own logic (renderer/src/features/assistant), without a browser:
 * - the transcript (transcript.ts): a stream's events folded into a turn: the thread and run from
 *   session_info, dropped mentions, text chunks appended, tool steps running → done or failed with their
 *   duration (by execution id), a card per widget_show, a confirmation from message.action with what would
 *   change, the end from run_status, an error in words, and a stream cut short marked failed;
 * - mentions (mentions.ts): the `@`/`#` being typed before the caret, a chosen one written into the text,
 *   options that start with the words first, and the question as sent: chosen mentions leave the words and go
 *   by id (several words in a name too), one typed by hand stays in the words;
 * - a reopened conversation (history.ts): a turn per question with the assistant's words and its receipts as
 *   steps, a shown card again (marked restored, with its title and widget) only from a `show` receipt, a
 *   waiting confirmation on the turn of its run, answerable with its thread and run.
 * The browser side is test/e2e/assistant.spec.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyEvent, describeConfirmation, endTurn, newTurn, type Turn } from '../../renderer/src/features/assistant/transcript.ts';
import { turnsOf } from '../../renderer/src/features/assistant/history.ts';
import { insertMention, matchOptions, toRequest, typingMention } from '../../renderer/src/features/assistant/mentions.ts';

const THREAD = '0b6f2d7e-4a36-4c1e-9d55-0f4d6c1f2a10';
const RUN = '9a1c1f33-2d43-4a77-8f0e-6b9b3f5c2e21';
const fold = (events: { event: string; data: Record<string, unknown> }[], turn: Turn = newTurn('t1', 'show videos from 2017')) => events.reduce(applyEvent, turn);

describe('transcript', () => {
  test('an answer with a tool step and a card', () => {
    const t = fold([
      { event: 'session_info', data: { thread_id: THREAD, run_id: RUN, dropped_mentions: [{ type: 'person', label: 'Zed', reason: 'not_found' }] } },
      { event: 'run_status', data: { run_id: RUN, status: 'running' } },
      { event: 'side_event', data: { type: 'tool_execution', tool: { name: 'filter_assets', executionId: 'e1' }, execution: { status: 'running' } } },
      { event: 'heartbeat', data: { timestamp: 1 } },
      { event: 'side_event', data: { type: 'tool_execution', tool: { name: 'filter_assets', executionId: 'e1' }, execution: { status: 'success', duration: 12 }, data: { refId: 'r1', count: 1 } } },
      { event: 'side_event', data: { type: 'tool_execution', tool: { name: 'show', executionId: 'e2' }, execution: { status: 'error', error: { code: 'x', message: 'no such ref' }, duration: 3 } } },
      { event: 'side_event', data: { type: 'widget_show', tool: { name: 'show', executionId: 'e2' }, data: { refId: 'r1', count: 1, widget: 'cover_card', title: 'Videos from 2017' } } },
      { event: 'message', data: { agent_name: 'hearth', output: 'I found 1 ' } },
      { event: 'message', data: { agent_name: 'hearth', output: 'item.' } },
      { event: 'run_status', data: { run_id: RUN, status: 'completed' } },
      { event: 'done', data: {} },
    ]);
    assert.equal(t.threadId, THREAD);
    assert.equal(t.runId, RUN);
    assert.deepEqual(t.dropped, [{ type: 'person', label: 'Zed', reason: 'not_found' }]);
    assert.deepEqual(
      t.steps.map((s) => [s.name, s.status, s.durationMs, s.message]),
      [
        ['filter_assets', 'success', 12, undefined],
        ['show', 'error', 3, 'no such ref'],
      ],
    );
    assert.deepEqual(t.cards, [{ refId: 'r1', threadId: THREAD, widget: 'cover_card', title: 'Videos from 2017', count: 1 }]);
    assert.equal(t.text, 'I found 1 item.');
    assert.equal(t.status, 'completed');
  });

  test('a confirmation says what would change; the run waits', () => {
    const t = fold([
      { event: 'session_info', data: { thread_id: THREAD, run_id: RUN } },
      {
        event: 'message',
        data: {
          agent_name: 'hearth',
          action: { type: 'interrupt', interrupt_id: 'f1', effect_id: 'f1', tool_name: 'create_album', confirmation: { action: 'create_album', count: 3, album_name: 'Trip' }, resume: { thread_id: THREAD, run_id: RUN } },
        },
      },
      { event: 'run_status', data: { run_id: RUN, status: 'awaiting_confirmation' } },
    ]);
    assert.equal(t.status, 'awaiting_confirmation');
    assert.equal(t.confirmations.length, 1);
    const c = t.confirmations[0]!;
    assert.deepEqual([c.effectId, c.threadId, c.runId, c.state], ['f1', THREAD, RUN, 'pending']);
    assert.equal(describeConfirmation(c), 'Make the album “Trip” of 3 items');
    assert.equal(describeConfirmation({ ...c, toolName: 'tag_assets', what: { count: 1, tags: ['beach', 'sea'] } }), 'Tag 1 item with beach, sea');
    assert.equal(describeConfirmation({ ...c, toolName: 'trash_assets', what: { count: 2, trash: true } }), 'Move 2 items to the Trash');
  });

  test('an error is said in words; a stream cut short fails rather than spinning', () => {
    const failed = fold([{ event: 'error', data: { error: 'The assistant failed on this request; the conversation can go on.' } }]);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error!, /conversation can go on/);
    const cut = endTurn(fold([{ event: 'message', data: { output: 'I fo' } }]));
    assert.equal(cut.status, 'failed');
    assert.match(cut.error!, /stopped before it was complete/);
    assert.equal(endTurn(fold([{ event: 'run_status', data: { status: 'cancelled' } }])).status, 'cancelled');
  });

  test('events of an unknown shape change nothing', () => {
    const t = newTurn('t1', 'x');
    assert.equal(applyEvent(t, { event: 'side_event', data: { type: 'widget_show', data: {} } }), t);
    assert.equal(applyEvent(t, { event: 'message', data: { action: {} } }), t);
    assert.equal(applyEvent(t, { event: 'run_status', data: { status: 'sideways' } }), t);
  });
});

describe('mentions', () => {
  test('what is being typed before the caret', () => {
    assert.deepEqual(typingMention('show @An', 8), { type: 'person', query: 'An', start: 5 });
    assert.deepEqual(typingMention('#', 1), { type: 'album', query: '', start: 0 });
    assert.equal(typingMention('mail@example', 12), null, 'not after a word');
    assert.equal(typingMention('show @Anna and', 14), null, 'not once a space closed it');
  });

  test('a chosen one is written into the text', () => {
    const r = insertMention('show @An from 2019', 5, 8, { type: 'person', id: 4, label: 'Anna Maria' });
    assert.deepEqual(r, { text: 'show @Anna Maria from 2019', caret: 17 });
  });

  test('options that start with the words come first', () => {
    const opts = [{ label: 'Grandma Anna' }, { label: 'Anna' }, { label: 'Bob' }];
    assert.deepEqual(matchOptions(opts, 'an').map((o) => o.label), ['Anna', 'Grandma Anna']);
    assert.equal(matchOptions(opts, '', 2).length, 2);
  });

  test('the question as sent: chosen mentions go by id, typed ones stay in the words', () => {
    const chosen = [
      { type: 'person' as const, id: 4, label: 'Anna Maria' },
      { type: 'album' as const, id: 7, label: 'Trip 2019' },
      { type: 'album' as const, id: 8, label: 'Trip' },
    ];
    assert.deepEqual(toRequest('show @Anna Maria in #Trip 2019 with @Zed', chosen), {
      query: 'show in with @Zed',
      mentions: [
        { type: 'person', id: 4, label: 'Anna Maria' },
        { type: 'album', id: 7, label: 'Trip 2019' },
      ],
    });
    assert.deepEqual(toRequest('#Trip', chosen), { query: 'show', mentions: [{ type: 'album', id: 8, label: 'Trip' }] });
    assert.deepEqual(toRequest('how many videos', chosen), { query: 'how many videos', mentions: [] });
  });
});

describe('a reopened conversation', () => {
  const at = '2024-05-01T10:00:00.000Z';
  const RUN2 = '5d1e0c2a-7b7f-4b8e-9a51-3c2f1e0d9b88';
  const stored = {
    thread: { thread_id: THREAD, title: 'show videos from 2017', mode: 'ask', status: 'awaiting_confirmation' as const, created_at: at, updated_at: at },
    messages: [
      { message_id: 1, run_id: RUN, role: 'user' as const, created_at: at, text: 'show videos from 2017' },
      { message_id: 2, run_id: RUN, role: 'tool' as const, created_at: at, tool: { name: 'filter_assets', ok: true, summary: 'Found 1 item.', ref_id: 'r1', count: 1 } },
      { message_id: 3, run_id: RUN, role: 'tool' as const, created_at: at, tool: { name: 'show', ok: true, summary: 'Shown r1 as spark_card.', ref_id: 'r1', count: 1, widget: 'spark_card', title: 'Videos from 2017' } },
      { message_id: 4, run_id: RUN, role: 'assistant' as const, created_at: at, text: 'I found 1 item.' },
      { message_id: 5, run_id: RUN2, role: 'user' as const, created_at: at, text: 'make an album called Trip of videos from 2017' },
      { message_id: 6, run_id: RUN2, role: 'tool' as const, created_at: at, tool: { name: 'tag_assets', ok: false, code: 'agent_ref_not_found', message: 'No such ref: r9.' } },
      { message_id: 7, run_id: RUN2, role: 'tool' as const, created_at: at, tool: { name: 'create_album', ok: true, summary: 'Would make the album.', ref_id: 'r1', count: 1 } },
    ],
    total_messages: 7,
    active_run: { run_id: RUN2, status: 'awaiting_confirmation' },
    pending: [{ interrupt_id: 'f1', run_id: RUN2, tool_name: 'create_album', confirmation: { action: 'create_album', count: 1, album_name: 'Trip' }, created_at: at }],
  };

  test('a turn per question: words, receipts as steps, a shown card restored, the waiting confirmation on its run', () => {
    const [first, second, ...rest] = turnsOf(stored);
    assert.equal(rest.length, 0);
    assert.deepEqual([first!.id, first!.asked, first!.text, first!.status, first!.threadId, first!.runId], ['h1', 'show videos from 2017', 'I found 1 item.', 'completed', THREAD, RUN]);
    assert.deepEqual(
      first!.steps.map((s) => [s.name, s.status, s.message]),
      [
        ['filter_assets', 'success', 'Found 1 item.'],
        ['show', 'success', 'Shown r1 as spark_card.'],
      ],
    );
    // Only the `show` receipt is a card (filter_assets' ref was never shown), with the title and widget it was shown with.
    assert.deepEqual(first!.cards, [{ refId: 'r1', threadId: THREAD, widget: 'spark_card', title: 'Videos from 2017', count: 1, restored: true }]);
    assert.deepEqual(first!.confirmations, []);

    assert.equal(second!.asked, 'make an album called Trip of videos from 2017');
    assert.deepEqual(second!.steps.map((s) => [s.name, s.status, s.message]), [
      ['tag_assets', 'error', 'No such ref: r9.'],
      ['create_album', 'success', 'Would make the album.'],
    ]);
    assert.equal(second!.status, 'awaiting_confirmation');
    const c = second!.confirmations[0]!;
    assert.deepEqual([c.effectId, c.threadId, c.runId, c.toolName, c.state], ['f1', THREAD, RUN2, 'create_album', 'pending']);
    assert.equal(describeConfirmation(c), 'Make the album “Trip” of 1 item');
  });

  test('an answered confirmation is a step with its receipt; words before the window’s first question make a turn of their own', () => {
    const answered = {
      ...stored,
      messages: [
        { message_id: 40, run_id: RUN2, role: 'assistant' as const, created_at: at, text: 'Earlier words.' },
        { message_id: 41, run_id: RUN2, role: 'tool' as const, created_at: at, tool: { name: 'create_album', receipt: { effect_id: 'f1', tool_name: 'create_album', status: 'failed', count: 0, message: 'The album could not be made.' } } },
        { message_id: 42, run_id: RUN2, role: 'tool' as const, created_at: at, tool: { name: 'show', ok: true, ref_id: 'r2', count: 3 } },
      ],
      pending: [],
      active_run: null,
    };
    const [only, ...rest] = turnsOf(answered);
    assert.equal(rest.length, 0);
    assert.equal(only!.asked, undefined);
    assert.equal(only!.text, 'Earlier words.');
    assert.deepEqual(only!.steps.map((s) => [s.name, s.status, s.message]), [
      ['create_album', 'error', 'The album could not be made.'],
      ['show', 'success', undefined],
    ]);
    // A `show` receipt without a widget (kept before widgets were) is not a card.
    assert.deepEqual(only!.cards, []);
    assert.equal(only!.status, 'completed');
  });
});

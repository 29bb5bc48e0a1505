/**
 * Host-action prompts (electron/desktop/host-prompts.ts): what the person at the home machine sees for
 * each request, and what goes back through the host channel. The channel is faked here by an in-memory
 * HostApprovals with the client's signatures (its real client and server are tested with the server);
 * the dialogs are the fake GUI's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HostPrompts, type HostActionForHost, type HostApprovals } from '../../electron/desktop/host-prompts.ts';
import { fakeElectron, until } from './fake-electron.ts';

function action(id: string, over: Partial<HostActionForHost> = {}): HostActionForHost {
  return {
    id,
    status: 'pending',
    name: `Holiday ${id}`,
    purpose: 'family',
    code: `48${id}-19`,
    requester: { user_id: 7, username: 'maya', display_name: 'Maya' },
    result: null,
    ...over,
  };
}

/** The host channel as the client shows it: a list, answers, and a stream of changes. */
function channel(initial: HostActionForHost[] = []) {
  const actions = new Map(initial.map((a) => [String(a.id), a]));
  const listeners = new Set<(a: HostActionForHost) => void>();
  const calls: string[] = [];
  let conflictFor: string | null = null;
  const set = (a: HostActionForHost) => {
    actions.set(String(a.id), a);
    for (const l of listeners) l(a);
    return a;
  };
  const approvals: HostApprovals = {
    list: async (status) => {
      calls.push(`list ${status}`);
      const found = [...actions.values()].filter((a) => !status || a.status === status);
      for (const a of found) if (a.status === 'pending') actions.set(String(a.id), { ...a, status: 'presented' });
      return found;
    },
    approve: async (id, path) => {
      calls.push(`approve ${id} ${path}`);
      const a = actions.get(String(id))!;
      if (!['pending', 'presented'].includes(a.status)) throw new Error(`This request is ${a.status}: it can no longer be approved.`);
      if (conflictFor === String(id)) {
        return set({ ...a, status: 'needs_decision', result: { conflict: { type: 'moved_or_copied', allowed_resolutions: ['relocate', 'add_separate', 'cancel'], risk_warnings: [] } } });
      }
      return set({ ...a, status: 'completed' });
    },
    deny: async (id) => {
      calls.push(`deny ${id}`);
      return set({ ...actions.get(String(id))!, status: 'cancelled' });
    },
    subscribe: (onAction) => {
      listeners.add(onAction);
      return () => listeners.delete(onAction);
    },
  };
  return { approvals, calls, emit: set, conflictOn: (id: string) => (conflictFor = id), listeners };
}

function prompts(c: ReturnType<typeof channel>) {
  const e = fakeElectron();
  let focused = 0;
  const p = new HostPrompts({ electron: e, approvals: c.approvals, window: () => null, focus: () => focused++ });
  return { e, p, focused: () => focused };
}

describe('desktop app: host-action prompts', { timeout: 30_000 }, () => {
  test('a new request: a notification and a dialog with who asks, name, purpose and code; then the folder picker, and approve with that path', async () => {
    const c = channel();
    const { e, p, focused } = prompts(c);
    await p.start();
    e.dialog.responses.push(0);
    e.dialog.folders.push('/home/maya/Pictures/Holiday');
    c.emit(action('1'));
    await until(() => p.outcomes.length === 1, 'the prompt is answered');
    assert.equal(e.notifications.length, 1);
    assert.match(e.notifications[0]!.title, /Maya \(maya\) asks to add a folder/);
    assert.match(e.notifications[0]!.body, /"Holiday 1" \(family\) · code 481-19/);
    e.notifications[0]!.click();
    assert.equal(focused(), 1, "the notification's click shows the window");
    const box = e.dialog.messageBoxes[0]!.options;
    assert.match(box.message, /Maya \(maya\) asks/);
    assert.match(box.detail!, /Name: Holiday 1\nPurpose: family\nCode: 481-19/);
    assert.deepEqual(box.buttons, ['Choose folder…', 'Deny', 'Later']);
    assert.deepEqual((e.dialog.openDialogs[0]!.options as { properties: string[] }).properties, ['openDirectory', 'createDirectory']);
    assert.deepEqual(c.calls.slice(-1), ['approve 1 /home/maya/Pictures/Holiday']);
    assert.deepEqual(p.outcomes, [{ id: '1', outcome: 'approved' }]);
    p.stop();
    assert.equal(c.listeners.size, 0, 'stop() unsubscribes');
  });

  test('"Deny" denies; "Later" and a cancelled picker send nothing', async () => {
    const c = channel();
    const { e, p } = prompts(c);
    await p.start();
    e.dialog.responses.push(1, 2, 0); // deny the first, later the second, choose for the third but cancel the picker
    c.emit(action('1'));
    c.emit(action('2'));
    c.emit(action('3'));
    await until(() => p.outcomes.length === 3, 'three prompts answered');
    assert.deepEqual(p.outcomes.map((o) => o.outcome), ['denied', 'later', 'later']);
    assert.deepEqual(c.calls.filter((x) => !x.startsWith('list')), ['deny 1']);
    assert.equal(e.dialog.openDialogs.length, 1);
  });

  test('one dialog at a time, each request once; requests waiting from before the start are shown too', async () => {
    const c = channel([action('1'), action('2', { status: 'presented' }), action('3', { status: 'completed' })]);
    const { e, p } = prompts(c);
    await p.start();
    await until(() => e.dialog.messageBoxes.length === 1, 'the first dialog');
    // The same action seen again (its update on the stream) does not open a second prompt.
    c.emit(action('2', { status: 'presented' }));
    assert.equal(e.dialog.messageBoxes.length, 1, 'the second waits for the first');
    e.dialog.answer(2);
    await until(() => e.dialog.messageBoxes.length === 2, 'the second dialog');
    e.dialog.answer(2);
    await p.idle();
    assert.deepEqual(p.outcomes.map((o) => o.id), ['1', '2'], 'the completed one is not shown');
    assert.deepEqual(c.calls.filter((x) => x.startsWith('list')), ['list pending', 'list presented']);
  });

  test('a request cancelled by the asking device while another dialog is open is skipped when its turn comes', async () => {
    const c = channel();
    const { e, p } = prompts(c);
    await p.start();
    c.emit(action('1'));
    c.emit(action('2'));
    await until(() => e.dialog.messageBoxes.length === 1, 'the first dialog');
    c.emit(action('2', { status: 'cancelled' }));
    e.dialog.answer(2);
    await p.idle();
    assert.deepEqual(p.outcomes, [{ id: '1', outcome: 'later' }, { id: '2', outcome: 'skipped' }]);
    assert.equal(e.dialog.messageBoxes.length, 1);
  });

  test('cancelled while the person was choosing the folder: nothing is approved', async () => {
    const c = channel();
    const { e, p } = prompts(c);
    await p.start();
    c.emit(action('1'));
    await until(() => e.dialog.messageBoxes.length === 1, 'the dialog');
    e.dialog.folders.push('/srv/photos');
    c.emit(action('1', { status: 'expired' }));
    e.dialog.answer(0);
    await p.idle();
    assert.deepEqual(p.outcomes, [{ id: '1', outcome: 'skipped' }]);
    assert.equal(c.calls.filter((x) => x.startsWith('approve')).length, 0);
  });

  test('a conflict is explained (the asking member decides); a refused approval shows why', async () => {
    const c = channel([action('1'), action('2')]);
    c.conflictOn('1');
    const { e, p } = prompts(c);
    e.dialog.responses.push(0, 0, 0, 0);
    e.dialog.folders.push('/srv/photos', '/srv/other');
    // The second expired on the server while the first was answered: the server refuses its approval.
    const approve = c.approvals.approve;
    c.approvals.approve = async (id, path) => {
      if (String(id) === '2') throw new Error('This request expired: ask again from the device.');
      return approve(id, path);
    };
    await p.start();
    await p.idle();
    assert.deepEqual(p.outcomes.map((o) => o.outcome), ['conflict', 'refused']);
    const [, conflictBox, , refusedBox] = e.dialog.messageBoxes.map((b) => b.options);
    assert.match(conflictBox!.message, /moved here or copied/);
    assert.match(conflictBox!.detail!, /Maya \(maya\) chooses on their device what to do: relocate, add separate, cancel/);
    assert.equal(refusedBox!.type, 'error');
    assert.match(refusedBox!.detail!, /expired/);
  });
});

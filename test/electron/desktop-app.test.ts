/**
 * The desktop app's main process (electron/desktop/desktop-app.ts) with Electron's GUI faked
 * (fake-electron.ts) and its server a real child process (the scripted stand-in; the real bundle runs in
 * test/server/electron-bundle.test.ts): single instance, the window kept in the tray, the tray's menu,
 * first run, giving up after crashes, and a clean quit.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { startDesktop, type Desktop, type DesktopOptions } from '../../electron/desktop/desktop-app.ts';
import type { IndexingControl } from '../../electron/desktop/tray-menu.ts';
import { fakeElectron, until, type FakeElectron } from './fake-electron.ts';
import { alive, nodeFork } from './fork.ts';

const ENTRY = path.join(import.meta.dirname, 'fixtures/scripted-server.mjs');

function launch(e: FakeElectron, over: Partial<DesktopOptions> & { serverEnv?: Record<string, string> } = {}): Desktop | null {
  const { serverEnv, ...rest } = over;
  return startDesktop({
    electron: e,
    argv: ['hearth'],
    serverEntry: ENTRY,
    preload: '/app/preload.cjs',
    resources: '/app/resources',
    fork: nodeFork,
    env: { PATH: process.env.PATH, SCRIPTED_COUNTER: path.join(e.app.userData, 'starts'), ...serverEnv },
    hostApprovals: () => null,
    indexing: () => null,
    backoff: { baseMs: 20, maxFastCrashes: 2 },
    log: () => undefined,
    ...rest,
  });
}

const ready = (d: Desktop) => until(() => d.tray !== null, 'the server is ready and the tray is up');

async function quit(e: FakeElectron, d: Desktop): Promise<void> {
  e.app.quit();
  await d.quitted;
}

function starts(e: FakeElectron): number[] {
  return fs.readFileSync(path.join(e.app.userData, 'starts'), 'utf8').trim().split('\n').map(Number);
}

describe('desktop app: main process', { timeout: 60_000 }, () => {
  test('single instance: a second launch quits at once, starts no server and opens no window', () => {
    const e = fakeElectron();
    e.app.lockAvailable = false;
    assert.equal(launch(e), null);
    assert.equal(e.app.quitCalls, 1);
    assert.equal(e.app.ended, true);
    assert.equal(e.windows.length, 0);
    assert.equal(fs.existsSync(path.join(e.app.userData, 'starts')), false, 'no server process was started');
  });

  test("single instance: the first instance's window is shown, restored and focused when the app is launched again", async () => {
    const e = fakeElectron();
    const d = launch(e)!;
    await ready(d);
    await until(() => e.windows.length === 1, 'the window opens');
    const win = e.windows[0]!;
    win.minimize();
    win.hide();
    e.app.emit('second-instance');
    assert.equal(e.windows.length, 1, 'no second window');
    assert.deepEqual([win.visible, win.minimized, win.focused], [true, false, true]);
    assert.equal(starts(e).length, 1, 'one server');
    await quit(e, d);
  });

  test('a second launch while the server is still starting shows the window once it is ready', async () => {
    const e = fakeElectron();
    const d = launch(e, { argv: ['hearth', '--hidden'] })!;
    e.app.emit('second-instance');
    assert.equal(e.windows.length, 0, 'no window before the server is ready');
    await ready(d);
    await until(() => e.windows.length === 1 && e.windows[0]!.visible, 'the window opens after ready');
    await quit(e, d);
  });

  test('closing the window keeps Hearth running in the tray; "Open Hearth" brings the same window back', async () => {
    const e = fakeElectron();
    const d = launch(e)!;
    await ready(d);
    await until(() => e.windows.length === 1, 'the window opens');
    const win = e.windows[0]!;
    assert.equal(win.close(), false, 'the close was turned into a hide');
    assert.equal(win.visible, false);
    e.app.emit('window-all-closed');
    assert.equal(e.app.ended, false, 'the app did not quit');
    assert.equal(d.supervisor.running, true, 'the server goes on');
    e.trays[0]!.item('Open Hearth').click!();
    assert.deepEqual([win.visible, win.focused, e.windows.length], [true, true, 1]);
    await quit(e, d);
  });

  test('tray: open the data folder, start at login (read back from the system), pause and resume indexing', async () => {
    const e = fakeElectron();
    let paused = false;
    const calls: boolean[] = [];
    const indexing: IndexingControl = {
      paused: async () => paused,
      setPaused: async (p) => {
        calls.push(p);
        paused = p;
        return paused;
      },
    };
    const d = launch(e, { indexing: () => indexing })!;
    await ready(d);
    const tray = e.trays[0]!;
    assert.equal(tray.tooltip, 'Hearth');
    await until(() => tray.menu.some((i) => i.label === 'Pause indexing'), 'the indexing state is read');

    fs.mkdirSync(d.dataDir, { recursive: true });
    tray.item('Open data folder').click!();
    assert.deepEqual(e.opened.paths, [d.dataDir]);
    assert.equal(d.dataDir, path.join(e.app.userData, 'data'));

    assert.equal(tray.item('Start at login').checked, false);
    tray.item('Start at login').click!();
    assert.equal(e.app.loginItem.openAtLogin, true);
    assert.deepEqual(e.app.loginItem.args, ['--hidden'], 'started at login, it opens in the tray');
    assert.equal(tray.item('Start at login').checked, true, 'the checkbox shows what the system now says');
    // Turned off elsewhere (the system's own settings): the next click starts from what the system says.
    e.app.loginItem.openAtLogin = false;
    tray.item('Start at login').click!();
    assert.equal(tray.item('Start at login').checked, true);

    tray.item('Pause indexing').click!();
    await until(() => tray.menu.some((i) => i.label === 'Resume indexing' && i.enabled !== false), 'paused');
    tray.item('Resume indexing').click!();
    await until(() => tray.menu.some((i) => i.label === 'Pause indexing' && i.enabled !== false), 'resumed');
    assert.deepEqual(calls, [true, false]);
    await quit(e, d);
  });

  test('tray: without a way to pause indexing the item says so and is disabled', async () => {
    const e = fakeElectron();
    const d = launch(e)!;
    await ready(d);
    const item = e.trays[0]!.item('Pause indexing');
    assert.equal(item.enabled, false);
    assert.equal(item.label, 'Pause indexing (not available)');
    await quit(e, d);
  });

  test('quit from the tray: the server is asked to stop, finishes its step, and only then does the app end', async () => {
    const e = fakeElectron();
    const d = launch(e)!;
    await ready(d);
    const [pid] = starts(e);
    e.trays[0]!.item('Quit Hearth').click!();
    assert.equal(e.app.ended, false, 'the first quit is held while the server stops');
    e.app.quit(); // a second quit while stopping changes nothing
    await d.quitted;
    assert.equal(e.app.ended, true);
    assert.equal(alive(pid), false);
    assert.equal(e.trays[0]!.destroyed, true);
    // The window really closes now (not hidden to the tray).
    assert.equal(e.windows[0]!.close(), true);
  });

  test('first run: with no administrator yet the window opens on the server, even when started hidden at login', async () => {
    const e = fakeElectron();
    const d = launch(e, { argv: ['hearth', '--hidden'], serverEnv: { SCRIPTED_BOOTSTRAP: '1' } })!;
    await ready(d);
    await until(() => e.windows.length === 1, 'the first-run window opens');
    const win = e.windows[0]!;
    assert.equal(win.loads[0], d.supervisor.url, 'the loopback address: the server treats it as this machine');
    assert.match(win.loads[0]!, /^http:\/\/127\.0\.0\.1:/);
    assert.equal(win.visible, true);
    await quit(e, d);
  });

  test('started hidden at login after setup: no window, only the tray', async () => {
    const e = fakeElectron();
    // The host prompts are set up after the first-run check has answered and the window was decided.
    let settled = false;
    const d = launch(e, { argv: ['hearth', '--hidden'], hostApprovals: () => ((settled = true), null) })!;
    await until(() => settled, 'start-up is done');
    assert.equal(e.windows.length, 0);
    assert.equal(e.trays.length, 1);
    await quit(e, d);
  });

  test('a server that keeps crashing: an error dialog with its last words, and the app quits', async () => {
    const e = fakeElectron();
    const d = launch(e, { serverEnv: { SCRIPTED_MODE: 'crash' } })!;
    await until(() => e.app.ended, 'the app quits');
    assert.equal(e.dialog.errorBoxes.length, 1);
    assert.match(e.dialog.errorBoxes[0]!.title, /could not keep running/);
    assert.match(e.dialog.errorBoxes[0]!.content, /stopped 2 times in a row \(last exit code 3\)/);
    assert.match(e.dialog.errorBoxes[0]!.content, /crashing on start 3/);
    assert.equal(starts(e).length, 3);
    assert.equal(e.windows.length, 0);
    assert.equal(d.tray, null);
  });
});

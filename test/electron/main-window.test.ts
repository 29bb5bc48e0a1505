/**
 * The desktop window (electron/desktop/main-window.ts, window-state.ts): size and place remembered in
 * userData and restored only on a display that still exists; links and pages that are not Hearth's go
 * to the system browser; the page asks to open itself there for what the window cannot do (a passkey).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { MainWindow, OPEN_IN_BROWSER_CHANNEL } from '../../electron/desktop/main-window.ts';
import { WINDOW_STATE_FILE } from '../../electron/desktop/window-state.ts';
import { fakeElectron, type FakeElectron } from './fake-electron.ts';

const SERVER = 'http://127.0.0.1:6680/';

function mainWindow(e: FakeElectron, quitting = () => false) {
  return new MainWindow({ electron: e, preload: '/app/preload.cjs', serverUrl: () => SERVER, quitting });
}

describe('desktop app: the window', () => {
  test('size and place are remembered when it closes and restored at the next start, maximized too', () => {
    const e = fakeElectron();
    const first = e.windows.length;
    const w1 = mainWindow(e).show();
    assert.equal(e.windows.length, first + 1);
    assert.deepEqual([e.windows[0]!.options.width, e.windows[0]!.options.height], [1280, 860], 'the default size the first time');
    assert.equal(e.windows[0]!.options.x, undefined, 'placed by the system the first time');
    assert.equal(e.windows[0]!.options.preload, '/app/preload.cjs');
    e.windows[0]!.bounds = { x: 300, y: 120, width: 1000, height: 700 };
    e.windows[0]!.maximized = true;
    assert.equal(w1.isDestroyed(), false);
    e.windows[0]!.close();
    const saved = JSON.parse(fs.readFileSync(path.join(e.app.userData, WINDOW_STATE_FILE), 'utf8'));
    assert.deepEqual(saved, { width: 1000, height: 700, x: 300, y: 120, maximized: true });

    // The next run of the app, same userData.
    const e2 = fakeElectron(e.app.userData);
    mainWindow(e2).show();
    const o = e2.windows[0]!.options;
    assert.deepEqual([o.x, o.y, o.width, o.height], [300, 120, 1000, 700]);
    assert.equal(e2.windows[0]!.maximized, true);
  });

  test('a place on a display that is gone is not restored (the size is kept, fitted to the screen)', () => {
    const e = fakeElectron();
    fs.writeFileSync(path.join(e.app.userData, WINDOW_STATE_FILE), JSON.stringify({ width: 2400, height: 700, x: 2500, y: 100, maximized: false }));
    // A second monitor at x ≥ 1920 was unplugged: one display left.
    mainWindow(e).show();
    const o = e.windows[0]!.options;
    assert.equal(o.x, undefined, 'off-screen place dropped: the system places it');
    assert.equal(o.width, 1920, 'no wider than the display');
    assert.equal(o.height, 700);

    // With the second display back, the place is used.
    const e2 = fakeElectron(e.app.userData);
    e2.displays.push({ x: 1920, y: 0, width: 2560, height: 1400 });
    mainWindow(e2).show();
    assert.deepEqual([e2.windows[0]!.options.x, e2.windows[0]!.options.y, e2.windows[0]!.options.width], [2500, 100, 2400]);
  });

  test('a damaged state file gives the defaults', () => {
    const e = fakeElectron();
    fs.writeFileSync(path.join(e.app.userData, WINDOW_STATE_FILE), '{"width": "wide"');
    mainWindow(e).show();
    assert.deepEqual([e.windows[0]!.options.width, e.windows[0]!.options.height, e.windows[0]!.options.x], [1280, 860, undefined]);
  });

  test('window.open and links to other sites open in the system browser, never in an app window', () => {
    const e = fakeElectron();
    mainWindow(e).show();
    const wc = e.windows[0]!.webContents;
    assert.deepEqual(wc.openHandler!({ url: 'https://www.openstreetmap.org/copyright' }), { action: 'deny' });
    assert.deepEqual(wc.openHandler!({ url: `${SERVER}albums/3` }), { action: 'deny' }, 'not even a page of Hearth gets a second window');
    assert.equal(wc.navigate('https://example.org/help'), false, 'navigating away is cancelled');
    assert.equal(wc.navigate(`${SERVER}photos`), true, "Hearth's own pages load in the window");
    assert.deepEqual(e.opened.external, ['https://www.openstreetmap.org/copyright', `${SERVER}albums/3`, 'https://example.org/help']);
  });

  test('only web and mail addresses are handed to the system: file: and custom schemes are dropped', () => {
    const e = fakeElectron();
    mainWindow(e).show();
    const wc = e.windows[0]!.webContents;
    assert.deepEqual(wc.openHandler!({ url: 'file:///etc/passwd' }), { action: 'deny' });
    assert.equal(wc.navigate('smb://nas/share'), false);
    wc.openHandler!({ url: 'mailto:family@example.org' });
    assert.deepEqual(e.opened.external, ['mailto:family@example.org']);
  });

  test('the page can ask to open itself in the system browser (a passkey), but only a page of Hearth', async () => {
    const e = fakeElectron();
    mainWindow(e);
    const handler = e.handlers.get(OPEN_IN_BROWSER_CHANNEL)!;
    assert.equal(await handler({ url: `${SERVER}settings/security` }), true);
    assert.equal(await handler({ url: 'https://evil.example/' }), false);
    // At localhost, where browsers allow passkeys (never at a numeric address such as the window's 127.0.0.1).
    assert.deepEqual(e.opened.external, [`${SERVER.replace('127.0.0.1', 'localhost')}settings/security`]);
  });

  test('closing hides the window unless the app is quitting; show() brings the same one back at its page', () => {
    const e = fakeElectron();
    let quitting = false;
    const mw = mainWindow(e, () => quitting);
    mw.show();
    const win = e.windows[0]!;
    assert.equal(win.loads[0], SERVER);
    assert.equal(win.close(), false);
    assert.equal(win.visible, false);
    mw.show();
    assert.equal(e.windows.length, 1);
    assert.equal(win.visible, true);
    assert.equal(win.loads.length, 1, 'shown again without reloading');
    quitting = true;
    assert.equal(win.close(), true);
    assert.equal(mw.window, null);
  });
});

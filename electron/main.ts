/**
 * The desktop app's entry: the real `electron` module handed to the main process's logic
 * (desktop/desktop-app.ts), which takes Electron's API as an argument so that it can be tested where
 * Electron cannot start (test/electron/). Only thin adapters live here; no decisions.
 *
 * Built by `npm run build:electron` (esbuild bundles this file, the preload, the server entry and the
 * server into electron/dist) and packaged by electron-builder (electron/packaging/, `npm run package:desktop`).
 */
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, screen, shell, Tray, utilityProcess } from 'electron';
import type { DesktopElectron, WindowApi } from './desktop/electron-api.ts';
import { startDesktop } from './desktop/desktop-app.ts';
import type { ServerChild } from './desktop/server-supervisor.ts';
import type { HostApprovals } from './desktop/host-prompts.ts';
import type { IndexingControl } from './desktop/tray-menu.ts';
import { createHostChannelClient } from '../server/src/features/host-actions/host-channel.client.ts';

// A 16×16 icon drawn in code, so that no binary asset is needed in the repository.
const TRAY_ICON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAOklEQVQ4T2NkoBAwUqifYdQABkrDgJGR8T8DAwMDIyMjI6VhQLEBjJSGwWgYUB4GoGhkJDUNDHoAAJjEBBEhHcOIAAAAAElFTkSuQmCC';

const windows = new WeakMap<WindowApi, BrowserWindow>();

const electron: DesktopElectron = {
  app,
  createWindow: (o) => {
    const win = new BrowserWindow({
      width: o.width,
      height: o.height,
      ...(o.x !== undefined && o.y !== undefined ? { x: o.x, y: o.y } : {}),
      minWidth: o.minWidth,
      minHeight: o.minHeight,
      title: o.title,
      show: o.show,
      webPreferences: { preload: o.preload, contextIsolation: true, sandbox: true, nodeIntegration: false },
    });
    windows.set(win, win);
    return win;
  },
  createTray: () => {
    const tray = new Tray(nativeImage.createFromDataURL(TRAY_ICON));
    return {
      setToolTip: (t) => tray.setToolTip(t),
      setMenu: (template) => tray.setContextMenu(Menu.buildFromTemplate(template)),
      on: (event, listener) => void tray.on(event, listener),
      destroy: () => tray.destroy(),
    };
  },
  dialog: {
    showMessageBox: (win, options) => {
      const parent = win ? windows.get(win) : undefined;
      return parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options);
    },
    showOpenDialog: (win, options) => {
      const parent = win ? windows.get(win) : undefined;
      return parent ? dialog.showOpenDialog(parent, options) : dialog.showOpenDialog(options);
    },
    showErrorBox: (title, content) => dialog.showErrorBox(title, content),
  },
  shell,
  screen,
  notify: (options, onClick) => {
    if (!Notification.isSupported()) return;
    const n = new Notification(options);
    n.on('click', onClick);
    n.show();
  },
  handle: (channel, handler) => ipcMain.handle(channel, (event) => handler({ url: event.sender.getURL() })),
};

/** Electron's utility process, with the same members as the tests' child_process.fork (ServerChild). */
function forkUtility(entry: string, options: { execArgv: string[]; env: Record<string, string | undefined> }): ServerChild {
  const env = Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined));
  const child = utilityProcess.fork(entry, [], { stdio: 'pipe', serviceName: 'Hearth server', execArgv: options.execArgv, env });
  return {
    get pid() {
      return child.pid;
    },
    stdout: child.stdout,
    stderr: child.stderr,
    postMessage: (m) => child.postMessage(m),
    kill: () => void child.kill(),
    once: (event, listener) => void child.once(event, listener),
  };
}

/** The host channel (HOST-CHANNEL.md): the only way the app answers host actions. */
function hostApprovals(dataDir: string): HostApprovals {
  const client = createHostChannelClient({ dataDir });
  return {
    list: (status) => client.list(status as Parameters<typeof client.list>[0]),
    approve: (id, folder) => client.approve(String(id), folder),
    deny: (id) => client.deny(String(id)),
    subscribe: (onAction) => client.subscribe(onAction),
  };
}

/** Pausing indexing through the host channel (features/jobs/indexing-pause.ts on the server). */
function indexingControl(dataDir: string): IndexingControl {
  const client = createHostChannelClient({ dataDir });
  return {
    paused: async () => (await client.indexing()).paused,
    setPaused: async (paused) => (await client.setIndexingPaused(paused)).paused,
  };
}

const resources = app.isPackaged ? process.resourcesPath : path.resolve(__dirname, '../..');
startDesktop({
  electron,
  argv: process.argv,
  serverEntry: path.join(__dirname, 'server-entry.cjs'),
  preload: path.join(__dirname, 'preload.cjs'),
  resources,
  fork: forkUtility,
  env: process.env,
  hostApprovals,
  indexing: indexingControl,
});

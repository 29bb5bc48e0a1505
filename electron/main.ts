/**
 * The desktop shell: one instance, a tray, a window on the local server. The server runs as a
 * utility process over the user's data folder (`<userData>/data`); browsers on the LAN can use the
 * same server when HEARTH_HOST=0.0.0.0 is set.
 *
 * Built by `npm run build:electron` (esbuild bundles this file, the preload and the server into
 * electron/dist) and packaged by electron-builder (electron-builder.yml).
 */
import path from 'node:path';
import { app, BrowserWindow } from 'electron';
import { startServer, type ServerHandle } from './server-process.ts';
import { createTray } from './tray.ts';
import { registerHostActions } from './host.ts';

let win: BrowserWindow | null = null;
let server: ServerHandle | null = null;

function openWindow(url: string): void {
  if (win) {
    win.show();
    win.focus();
    return;
  }
  win = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'Hearth',
    webPreferences: { preload: path.join(__dirname, 'preload.cjs'), contextIsolation: true, sandbox: true },
  });
  win.on('closed', () => (win = null));
  void win.loadURL(url);
}

async function boot(): Promise<void> {
  const dataDir = path.join(app.getPath('userData'), 'data');
  const resources = app.isPackaged ? process.resourcesPath : path.resolve(__dirname, '../..');
  server = await startServer({
    entry: path.join(__dirname, 'server', 'main.js'),
    dataDir,
    modelsDir: path.join(app.getPath('userData'), 'models'),
    shippedModelsDir: path.join(resources, 'models'),
    uiDir: path.join(resources, 'renderer/dist'),
    onCrash: (code) => console.error(`Hearth server exited (${code}); restarting`),
  });
  registerHostActions(() => win);
  createTray({ url: server.url, dataDir, open: () => openWindow(server!.url), quit: () => app.quit() });
  openWindow(server.url);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => server && openWindow(server.url));
  app.whenReady().then(boot, (err: unknown) => {
    console.error(err);
    app.quit();
  });
  // Closing the window keeps Hearth running in the tray (uploads and indexing go on).
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (e) => {
    if (!server) return;
    e.preventDefault();
    const s = server;
    server = null;
    void s.stop().finally(() => app.quit());
  });
}

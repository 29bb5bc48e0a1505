/**
 * The desktop app's main process, with Electron passed in (electron-api.ts): one instance, the server in
 * its own process (server-supervisor.ts), one window (main-window.ts), the tray (tray-menu.ts), the
 * first-run window (first-run.ts) and the host-action prompts (host-prompts.ts). electron/main.ts calls
 * `startDesktop` with the real `electron`; the tests call it with fakes and a real server process.
 *
 * Life cycle:
 *  - A second launch does not start a second Hearth: it quits, and the first instance shows its window
 *    (restored if minimized, focused) — at once, or as soon as the server is ready.
 *  - Closing the window hides it; Hearth keeps running in the tray ('window-all-closed' does nothing).
 *  - Quit (tray, or the system's quit) stops the prompts, then stops the server cleanly (its jobs finish
 *    their current step), then quits for real. A second quit while stopping changes nothing.
 *  - Started at login with `--hidden`, no window opens, except on first run (no administrator yet).
 */
import path from 'node:path';
import type { DesktopElectron } from './electron-api.ts';
import { firstRunPage } from './first-run.ts';
import { HostPrompts, type HostApprovals } from './host-prompts.ts';
import { MainWindow } from './main-window.ts';
import { ServerSupervisor, type BackoffPolicy, type ForkServer } from './server-supervisor.ts';
import { HIDDEN_ARG, TrayMenu, type IndexingControl } from './tray-menu.ts';

export interface DesktopOptions {
  electron: DesktopElectron;
  argv: string[];
  /** electron/dist/server-entry.cjs and electron/dist/preload.cjs */
  serverEntry: string;
  preload: string;
  /** Where the shipped models and the web UI are: process.resourcesPath when packaged. */
  resources: string;
  fork: ForkServer;
  env: NodeJS.ProcessEnv;
  /** The host-channel client, made once the server is up (it writes the channel's token as it starts). */
  hostApprovals: (dataDir: string) => HostApprovals | null;
  indexing: (dataDir: string) => IndexingControl | null;
  backoff?: Partial<BackoffPolicy>;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

export interface Desktop {
  supervisor: ServerSupervisor;
  window: MainWindow;
  tray: TrayMenu | null;
  prompts: HostPrompts | null;
  dataDir: string;
  /** Resolves once the app has stopped the server and quit for real. */
  quitted: Promise<void>;
}

/** Starts the app; null when another instance already runs (this one then quits). */
export function startDesktop(o: DesktopOptions): Desktop | null {
  const { electron } = o;
  const { app, dialog } = electron;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  const log = o.log ?? ((line: string) => console.error(line));
  const userData = app.getPath('userData');
  const dataDir = path.join(userData, 'data');
  let quitting = false;
  let stopped = false;
  let ready = false;
  let windowWanted = !o.argv.includes(HIDDEN_ARG);
  let markQuitted: () => void = () => undefined;
  const quitted = new Promise<void>((resolve) => (markQuitted = resolve));

  const supervisor = new ServerSupervisor({
    entry: o.serverEntry,
    folders: {
      dataDir,
      modelsDir: path.join(userData, 'models'),
      shippedModelsDir: path.join(o.resources, 'models'),
      uiDir: path.join(o.resources, 'renderer/dist'),
    },
    fork: o.fork,
    env: o.env,
    ...(o.backoff ? { backoff: o.backoff } : {}),
    onOutput: (chunk, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
    onCrash: ({ code, restartInMs }) => log(`Hearth server exited (code ${code}); starting it again in ${restartInMs} ms`),
    onGiveUp: ({ code, fastCrashes, output }) => {
      dialog.showErrorBox(
        'Hearth could not keep running',
        `The Hearth server stopped ${fastCrashes} times in a row (last exit code ${code}), so it was not started again.\n\n` +
          `Your photos and library are untouched. The last lines it wrote:\n\n${output.split('\n').slice(-15).join('\n')}`,
      );
      app.quit();
    },
    onReady: (url) => {
      // After a restart on another port (HEARTH_PORT=0), the open window follows the server.
      const win = desktop.window.window;
      if (win && ready && !win.webContents.getURL().startsWith(url)) void win.loadURL(url);
    },
  });
  const window = new MainWindow({ electron, preload: o.preload, serverUrl: () => supervisor.url ?? 'http://127.0.0.1/', quitting: () => quitting });
  const desktop: Desktop = { supervisor, window, tray: null, prompts: null, dataDir, quitted };

  const showWindow = () => {
    if (ready) window.show();
    else windowWanted = true; // shown as soon as the server is ready
  };
  app.on('second-instance', showWindow);
  app.on('activate', showWindow); // macOS: a click on the Dock icon
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (e) => {
    if (stopped) return;
    e.preventDefault();
    if (quitting) return;
    quitting = true;
    desktop.prompts?.stop();
    void supervisor.stop().then((how) => {
      log(`Hearth server ${how === 'killed' ? 'did not stop in time and was killed' : 'stopped'}`);
      stopped = true;
      electronTray?.destroy();
      markQuitted();
      app.quit();
    });
  });

  let electronTray: ReturnType<DesktopElectron['createTray']> | null = null;
  void app
    .whenReady()
    .then(() => supervisor.start())
    .then(async (url) => {
      ready = true;
      electronTray = electron.createTray();
      desktop.tray = new TrayMenu({
        tray: electronTray,
        app,
        shell: electron.shell,
        dataDir,
        open: () => window.show(),
        quit: () => app.quit(),
        indexing: o.indexing(dataDir),
        onError: (what, err) => void dialog.showMessageBox(window.window, { type: 'error', title: what, message: what, detail: (err as Error).message, buttons: ['OK'] }),
      });
      void desktop.tray.refresh();
      const firstRun = await firstRunPage(url, o.fetch ?? fetch);
      if (firstRun) window.show(firstRun);
      else if (windowWanted) window.show(url);
      const approvals = o.hostApprovals(dataDir);
      if (approvals) {
        desktop.prompts = new HostPrompts({ electron, approvals, window: () => window.window, focus: () => window.show() });
        await desktop.prompts.start().catch((e: Error) => log(`host requests cannot be read: ${e.message}`));
      }
    })
    .catch((e: Error) => {
      // Given up before the first start (the dialog was shown), or quit while starting.
      log(`Hearth did not start: ${e.message}`);
      if (!quitting) app.quit();
    });
  return desktop;
}

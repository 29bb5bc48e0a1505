/**
 * Fakes of the GUI part of Electron (electron/desktop/electron-api.ts) for the main-process tests: a GUI
 * cannot run on these machines. They record what the app asked (windows shown, menus set, dialogs
 * opened, links handed to the system) and let a test act as the person (close the window, click a menu
 * item, answer a dialog) or as the system (a second launch, a quit). They decide nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  AppApi,
  DesktopElectron,
  MenuItem,
  MessageBoxOptions,
  Rectangle,
  TrayApi,
  WebContentsApi,
  WindowApi,
  WindowOptions,
} from '../../electron/desktop/electron-api.ts';

type Listener = (...args: any[]) => void;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
}

export class FakeApp extends Emitter implements AppApi {
  lockAvailable = true;
  quitCalls = 0;
  /** True once a quit was not prevented by any before-quit listener: the app really ended. */
  ended = false;
  loginItem = { openAtLogin: false, openAsHidden: false, args: [] as string[] };
  constructor(readonly userData: string) {
    super();
  }
  requestSingleInstanceLock(): boolean {
    return this.lockAvailable;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  quit(): void {
    this.quitCalls++;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.ended = true;
  }
  exit(): void {
    this.ended = true;
  }
  getPath(): string {
    return this.userData;
  }
  setLoginItemSettings(s: { openAtLogin: boolean; openAsHidden?: boolean; args?: string[] }): void {
    this.loginItem = { openAtLogin: s.openAtLogin, openAsHidden: s.openAsHidden ?? false, args: s.args ?? [] };
  }
  getLoginItemSettings(): { openAtLogin: boolean } {
    return { openAtLogin: this.loginItem.openAtLogin };
  }
}

export class FakeWebContents extends Emitter implements WebContentsApi {
  openHandler: ((d: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  url = '';
  setWindowOpenHandler(h: (d: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.openHandler = h;
  }
  getURL(): string {
    return this.url;
  }
  /** The page navigates to `url` (a link click): true when the app let it happen. */
  navigate(url: string): boolean {
    let prevented = false;
    this.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
    if (!prevented) this.url = url;
    return !prevented;
  }
}

export class FakeWindow extends Emitter implements WindowApi {
  readonly webContents = new FakeWebContents();
  visible = false;
  focused = false;
  minimized = false;
  maximized = false;
  destroyed = false;
  bounds: Rectangle;
  loads: string[] = [];
  constructor(readonly options: WindowOptions) {
    super();
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width, height: options.height };
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
    this.focused = false;
  }
  focus(): void {
    this.focused = true;
  }
  restore(): void {
    this.minimized = false;
  }
  minimize(): void {
    this.minimized = true;
    this.focused = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  maximize(): void {
    this.maximized = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds(): Rectangle {
    return { ...this.bounds };
  }
  loadURL(url: string): Promise<void> {
    this.loads.push(url);
    this.webContents.url = url;
    return Promise.resolve();
  }
  /** The person clicks the window's close button (or the app quits): true when it really closed. */
  close(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (prevented) return false;
    this.destroyed = true;
    this.visible = false;
    this.emit('closed');
    return true;
  }
}

export class FakeTray extends Emitter implements TrayApi {
  tooltip = '';
  menu: MenuItem[] = [];
  menus = 0;
  destroyed = false;
  setToolTip(t: string): void {
    this.tooltip = t;
  }
  setMenu(template: MenuItem[]): void {
    this.menu = template;
    this.menus++;
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** The menu item whose label starts with `label`. */
  item(label: string): MenuItem {
    const found = this.menu.find((i) => i.label?.startsWith(label));
    if (!found) throw new Error(`no tray item "${label}" in ${JSON.stringify(this.menu.map((i) => i.label))}`);
    return found;
  }
}

/** A dialog answer waiting for the app to ask: the test resolves them in order. */
interface Pending<T> {
  options: unknown;
  resolve: (answer: T) => void;
}

export class FakeDialog {
  readonly messageBoxes: { window: WindowApi | null; options: MessageBoxOptions }[] = [];
  readonly openDialogs: { window: WindowApi | null; options: unknown }[] = [];
  readonly errorBoxes: { title: string; content: string }[] = [];
  /** Scripted answers: each message box takes the next response (button index); none left waits. */
  readonly responses: number[] = [];
  readonly folders: (string | null)[] = [];
  private waiting: Pending<{ response: number }>[] = [];
  showMessageBox(window: WindowApi | null, options: MessageBoxOptions): Promise<{ response: number }> {
    this.messageBoxes.push({ window, options });
    const next = this.responses.shift();
    if (next !== undefined) return Promise.resolve({ response: next });
    return new Promise((resolve) => this.waiting.push({ options, resolve }));
  }
  /** Answers the oldest message box still open. */
  answer(response: number): void {
    const w = this.waiting.shift();
    if (!w) throw new Error('no message box is open');
    w.resolve({ response });
  }
  showOpenDialog(window: WindowApi | null, options: unknown): Promise<{ canceled: boolean; filePaths: string[] }> {
    this.openDialogs.push({ window, options });
    const folder = this.folders.shift() ?? null;
    return Promise.resolve(folder ? { canceled: false, filePaths: [folder] } : { canceled: true, filePaths: [] });
  }
  showErrorBox(title: string, content: string): void {
    this.errorBoxes.push({ title, content });
  }
}

export interface FakeElectron extends DesktopElectron {
  app: FakeApp;
  dialog: FakeDialog;
  windows: FakeWindow[];
  trays: FakeTray[];
  notifications: { title: string; body: string; click: () => void }[];
  opened: { paths: string[]; external: string[] };
  displays: Rectangle[];
  handlers: Map<string, (sender: { url: string }) => unknown>;
}

export function fakeElectron(userData = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-desktop-'))): FakeElectron {
  const opened = { paths: [] as string[], external: [] as string[] };
  const e: FakeElectron = {
    app: new FakeApp(userData),
    dialog: new FakeDialog(),
    windows: [],
    trays: [],
    notifications: [],
    opened,
    displays: [{ x: 0, y: 0, width: 1920, height: 1040 }],
    handlers: new Map(),
    createWindow: (options) => {
      const w = new FakeWindow(options);
      e.windows.push(w);
      return w;
    },
    createTray: () => {
      const t = new FakeTray();
      e.trays.push(t);
      return t;
    },
    shell: {
      openPath: (p) => {
        opened.paths.push(p);
        return Promise.resolve(fs.existsSync(p) ? '' : `no such folder: ${p}`);
      },
      openExternal: (u) => {
        opened.external.push(u);
        return Promise.resolve();
      },
    },
    screen: { getAllDisplays: () => e.displays.map((workArea) => ({ workArea })) },
    notify: (o, click) => e.notifications.push({ ...o, click }),
    handle: (channel, handler) => e.handlers.set(channel, handler),
  };
  return e;
}

/** Waits until `check` holds (polling; no timing is asserted), failing after `ms` with `what`. */
export async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

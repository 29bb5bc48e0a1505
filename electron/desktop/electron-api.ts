/**
 * The few members of Electron's API the desktop app's main process uses, as plain interfaces. Every
 * module under electron/desktop/ takes them as arguments instead of importing `electron`, because
 * Electron cannot start on the machines that run the tests (no display, no binary download): the tests
 * pass fakes of this GUI surface, and electron/main.ts passes the real `electron` module (through the
 * small adapters there). Nothing in electron/desktop/ may import `electron` except as `import type`.
 *
 * Shapes follow Electron's own (same names, same arguments) so the adapters in main.ts stay one-liners.
 */

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface AppApi {
  /** False in a second launch: the first instance gets 'second-instance' and this one must quit. */
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<void>;
  on(event: 'second-instance' | 'window-all-closed' | 'activate', listener: () => void): void;
  on(event: 'before-quit', listener: (e: { preventDefault(): void }) => void): void;
  quit(): void;
  exit(code?: number): void;
  getPath(name: 'userData'): string;
  setLoginItemSettings(settings: { openAtLogin: boolean; openAsHidden?: boolean; args?: string[] }): void;
  getLoginItemSettings(): { openAtLogin: boolean };
}

export interface WebContentsApi {
  /** window.open and target=_blank links: the answer decides whether Electron opens a window. */
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void;
  on(event: 'will-navigate', listener: (e: { preventDefault(): void }, url: string) => void): void;
  getURL(): string;
}

export interface WindowApi {
  readonly webContents: WebContentsApi;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  maximize(): void;
  isDestroyed(): boolean;
  /** The bounds the window has when neither maximized nor minimized (what is remembered). */
  getNormalBounds(): Rectangle;
  loadURL(url: string): Promise<void>;
  on(event: 'close', listener: (e: { preventDefault(): void }) => void): void;
  on(event: 'closed' | 'resized' | 'moved' | 'maximize' | 'unmaximize', listener: () => void): void;
}

export interface WindowOptions {
  width: number;
  height: number;
  x?: number;
  y?: number;
  minWidth: number;
  minHeight: number;
  title: string;
  show: boolean;
  /** The preload script (electron/dist/preload.cjs); context isolation and the sandbox are always on. */
  preload: string;
}

/** One entry of the tray's context menu (Electron's MenuItemConstructorOptions, the part we use). */
export interface MenuItem {
  label?: string;
  type?: 'normal' | 'separator' | 'checkbox';
  checked?: boolean;
  enabled?: boolean;
  click?: () => void;
}

export interface TrayApi {
  setToolTip(text: string): void;
  /** Electron builds the native menu from the template (Menu.buildFromTemplate) and sets it. */
  setMenu(template: MenuItem[]): void;
  on(event: 'click', listener: () => void): void;
  destroy(): void;
}

export interface MessageBoxOptions {
  type: 'none' | 'info' | 'error' | 'question' | 'warning';
  title: string;
  message: string;
  detail?: string;
  buttons: string[];
  defaultId?: number;
  cancelId?: number;
}

export interface DialogApi {
  showMessageBox(window: WindowApi | null, options: MessageBoxOptions): Promise<{ response: number }>;
  showOpenDialog(
    window: WindowApi | null,
    options: { title: string; buttonLabel?: string; properties: ('openDirectory' | 'createDirectory')[] },
  ): Promise<{ canceled: boolean; filePaths: string[] }>;
  showErrorBox(title: string, content: string): void;
}

export interface ShellApi {
  openPath(path: string): Promise<string>;
  openExternal(url: string): Promise<void>;
}

export interface ScreenApi {
  /** Each display's work area (the screen minus task bars and docks). */
  getAllDisplays(): { workArea: Rectangle }[];
}

/** A native notification (Electron's `new Notification(...).show()`); `onClick` when the person clicks it. */
export type Notify = (options: { title: string; body: string }, onClick: () => void) => void;

/** What the main process needs from Electron, passed in by electron/main.ts. */
export interface DesktopElectron {
  app: AppApi;
  createWindow(options: WindowOptions): WindowApi;
  createTray(): TrayApi;
  dialog: DialogApi;
  shell: ShellApi;
  screen: ScreenApi;
  notify: Notify;
  /** ipcMain.handle: requests from the window's preload (electron/preload.ts). */
  handle(channel: string, handler: (sender: { url: string }) => unknown): void;
}

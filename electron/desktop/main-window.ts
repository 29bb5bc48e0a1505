/**
 * The one window of the desktop app: a browser of the local server, nothing more. It remembers its size
 * and place (window-state.ts), hides instead of closing (Hearth keeps running in the tray; only a real
 * quit closes it), and hands everything that is not Hearth to the system browser:
 *  - window.open and target=_blank links (setWindowOpenHandler): never a second Electron window;
 *  - a navigation of the window to another origin (will-navigate): cancelled, opened outside;
 *  - what the window cannot do itself. A passkey is the case known: Electron's window has no platform
 *    authenticator on Linux and reaches it only partly elsewhere, and at 127.0.0.1 the server offers no
 *    passkeys at all (renderer/src/api/passkeys.ts, reason `ip_address`). The renderer detects it (no
 *    passkey offered, or the ceremony failing with NotAllowedError/NotSupportedError while
 *    `window.hearthHost` exists, i.e. inside this window) and asks through the preload
 *    (`hearthHost.openInBrowser()`, IPC `hearth:open-in-browser`) to open the page it shows in the
 *    system browser, where the person's own browser and authenticator are.
 * Only http(s) and mailto addresses are ever handed to the system: a `file:` or custom-scheme link from a
 * page is dropped, so a page cannot make the app launch local programs.
 */
import type { DesktopElectron, WindowApi } from './electron-api.ts';
import { loadWindowState, MIN_SIZE, placeOnDisplays, saveWindowState, type WindowState } from './window-state.ts';

export const OPEN_IN_BROWSER_CHANNEL = 'hearth:open-in-browser';

/**
 * The address the system browser is sent to: the window's, with a loopback IP named `localhost`. Browsers allow
 * passkeys at `localhost` over plain HTTP but never at a numeric address (the server's browser capabilities say
 * `ip_address` there), so sending 127.0.0.1 on would land the person on the same refusal.
 */
export function browserAddress(url: string): string {
  const u = new URL(url);
  if (u.hostname === '127.0.0.1' || u.hostname === '[::1]') u.hostname = 'localhost';
  return u.toString();
}

export function isExternalAllowed(url: string): boolean {
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

export interface MainWindowOptions {
  electron: DesktopElectron;
  preload: string;
  /** The server's address (it may change after a restart of the server on port 0). */
  serverUrl: () => string;
  /** True once the app is quitting: then closing the window really closes it. */
  quitting: () => boolean;
}

export class MainWindow {
  private win: WindowApi | null = null;

  constructor(private readonly opts: MainWindowOptions) {
    const { electron } = opts;
    electron.handle(OPEN_IN_BROWSER_CHANNEL, (sender) => {
      // Only a page of Hearth itself may be sent out, and only the page the window shows.
      if (!sameOrigin(sender.url, opts.serverUrl())) return false;
      void electron.shell.openExternal(browserAddress(sender.url));
      return true;
    });
  }

  get window(): WindowApi | null {
    return this.win && !this.win.isDestroyed() ? this.win : null;
  }

  /** Shows the window (made on first use), restored if minimized and focused, at `url` when given. */
  show(url?: string): WindowApi {
    const existing = this.window;
    if (existing) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      if (url) void existing.loadURL(url);
      return existing;
    }
    const win = this.create();
    void win.loadURL(url ?? this.opts.serverUrl());
    win.show();
    win.focus();
    return win;
  }

  private create(): WindowApi {
    const { electron } = this.opts;
    const userData = electron.app.getPath('userData');
    const state = placeOnDisplays(
      loadWindowState(userData),
      electron.screen.getAllDisplays().map((d) => d.workArea),
    );
    const win = electron.createWindow({
      width: state.width,
      height: state.height,
      ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      title: 'Hearth',
      show: false,
      preload: this.opts.preload,
    });
    if (state.maximized) win.maximize();
    this.win = win;

    const remember = () => {
      if (win.isDestroyed()) return;
      const b = win.getNormalBounds();
      const next: WindowState = { width: b.width, height: b.height, x: b.x, y: b.y, maximized: win.isMaximized() };
      try {
        saveWindowState(userData, next);
      } catch {
        // A read-only or full disk: the window opens at the default size next time.
      }
    };
    win.on('close', (e) => {
      remember();
      if (this.opts.quitting()) return;
      // Closing the window is not quitting: Hearth goes on in the tray (uploads, indexing, host requests).
      e.preventDefault();
      win.hide();
    });
    win.on('closed', () => {
      if (this.win === win) this.win = null;
    });

    win.webContents.setWindowOpenHandler(({ url }) => {
      if (isExternalAllowed(url)) void electron.shell.openExternal(url);
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (e, url) => {
      if (sameOrigin(url, this.opts.serverUrl())) return;
      e.preventDefault();
      if (isExternalAllowed(url)) void electron.shell.openExternal(url);
    });
    return win;
  }
}

/**
 * The tray icon and its menu: Hearth keeps running there when its window is closed.
 *
 *   Open Hearth · Pause indexing / Resume indexing · Open data folder · Start at login ✓ · Quit Hearth
 *
 * The menu is built again after every change, from what the system and the server say (never from what
 * the app last asked): "Start at login" shows app.getLoginItemSettings() read back after setting it, and
 * the indexing item shows the state the server answers after a pause or resume.
 *
 * Pausing indexing goes through the host channel (the desktop has no member session, and pausing the
 * machine's CPU work is the home machine's decision): GET/PUT /host/v1/indexing, which pauses the server's
 * `media` and `ml` queues (features/jobs/indexing-pause.ts). The item works through an injected
 * `IndexingControl` (main.ts wires the host-channel client); without one, or while the server cannot be
 * reached, it is shown disabled rather than pretending.
 */
import type { MenuItem, TrayApi, AppApi, ShellApi } from './electron-api.ts';

export interface IndexingControl {
  paused(): Promise<boolean>;
  setPaused(paused: boolean): Promise<boolean>;
}

export interface TrayOptions {
  tray: TrayApi;
  app: AppApi;
  shell: ShellApi;
  dataDir: string;
  open: () => void;
  quit: () => void;
  indexing: IndexingControl | null;
  /** Something went wrong doing what the person asked (the app shows it in a dialog). */
  onError: (what: string, error: unknown) => void;
}

/** Launched at login, the app starts in the tray: main.ts sees this argument and opens no window. */
export const HIDDEN_ARG = '--hidden';

export class TrayMenu {
  private indexingPaused: boolean | null = null;
  private busy = false;

  constructor(private readonly opts: TrayOptions) {
    opts.tray.setToolTip('Hearth');
    opts.tray.on('click', opts.open);
    this.render();
  }

  /** Reads the indexing state from the server again and rebuilds the menu. */
  async refresh(): Promise<void> {
    if (this.opts.indexing) {
      try {
        this.indexingPaused = await this.opts.indexing.paused();
      } catch {
        this.indexingPaused = null;
      }
    }
    this.render();
  }

  /** The menu as it stands (also what the tests read). */
  template(): MenuItem[] {
    const { app } = this.opts;
    const atLogin = app.getLoginItemSettings().openAtLogin;
    return [
      { label: 'Open Hearth', click: this.opts.open },
      { type: 'separator' },
      this.indexingItem(),
      { label: 'Open data folder', click: () => this.openDataFolder() },
      // Toggled from what the system says at the click, not from what the menu showed when it was built.
      { label: 'Start at login', type: 'checkbox', checked: atLogin, click: () => this.setStartAtLogin(!app.getLoginItemSettings().openAtLogin) },
      { type: 'separator' },
      { label: 'Quit Hearth', click: this.opts.quit },
    ];
  }

  private indexingItem(): MenuItem {
    if (!this.opts.indexing) return { label: 'Pause indexing (not available)', enabled: false };
    if (this.indexingPaused === null) return { label: 'Pause indexing (server not reachable)', enabled: false };
    const paused = this.indexingPaused;
    return { label: paused ? 'Resume indexing' : 'Pause indexing', enabled: !this.busy, click: () => void this.setIndexingPaused(!paused) };
  }

  private render(): void {
    this.opts.tray.setMenu(this.template());
  }

  async setIndexingPaused(paused: boolean): Promise<void> {
    const control = this.opts.indexing;
    if (!control) return;
    this.busy = true;
    this.render();
    try {
      this.indexingPaused = await control.setPaused(paused);
    } catch (e) {
      this.opts.onError(paused ? 'Indexing could not be paused' : 'Indexing could not be resumed', e);
      this.indexingPaused = await control.paused().catch(() => null);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  openDataFolder(): void {
    void this.opts.shell.openPath(this.opts.dataDir).then((error) => {
      // shell.openPath answers an error message, or '' when the folder opened.
      if (error) this.opts.onError('The data folder could not be opened', new Error(error));
    });
  }

  setStartAtLogin(on: boolean): void {
    // Started at login, Hearth goes to the tray without a window (HIDDEN_ARG; openAsHidden is macOS's).
    this.opts.app.setLoginItemSettings({ openAtLogin: on, openAsHidden: true, args: [HIDDEN_ARG] });
    this.render();
  }
}

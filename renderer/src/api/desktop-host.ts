/**
 * The desktop app's bridge (electron/preload.ts: `window.hearthHost`), present only inside the app's own window,
 * which is how the web UI knows it runs there. The window shows Hearth at its loopback address, where browsers
 * allow no passkey; `openInBrowser()` asks the app to open the page the window shows in the person's own browser
 * (at `localhost`, where passkeys work), which answers false for a page that is not Hearth's.
 */
export interface DesktopHost {
  openInBrowser(): Promise<boolean>;
}

export function desktopHost(): DesktopHost | null {
  const host = (window as { hearthHost?: Partial<DesktopHost> }).hearthHost;
  return host && typeof host.openInBrowser === 'function' ? (host as DesktopHost) : null;
}

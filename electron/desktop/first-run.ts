/**
 * First run: until the household's administrator exists, the server is in bootstrap mode
 * (GET /api/v1/auth/bootstrap, `bootstrap_mode`), and every page of the web UI leads to creating that
 * account (renderer/src/app/SignedOutApp.tsx → FirstRunPage). The desktop app then always opens its
 * window, even when it was started hidden at login, so the person at the machine creates the
 * administrator here. The window's address is the server's loopback one (127.0.0.1), so the server
 * counts the request as local (`local_request`) and asks for no setup code; from another device it would.
 */
export interface BootstrapStatus {
  bootstrap_mode: boolean;
  local_request: boolean;
}

/** The server's bootstrap status, or null when it cannot be read (then the app behaves as after setup). */
export async function readBootstrap(serverUrl: string, fetchFn: typeof fetch = fetch): Promise<BootstrapStatus | null> {
  try {
    const res = await fetchFn(new URL('api/v1/auth/bootstrap', serverUrl));
    if (!res.ok) return null;
    return (await res.json()) as BootstrapStatus;
  } catch {
    return null;
  }
}

/** Where the window opens on first run (the create-the-administrator page), or null when setup is done. */
export async function firstRunPage(serverUrl: string, fetchFn: typeof fetch = fetch): Promise<string | null> {
  const status = await readBootstrap(serverUrl, fetchFn);
  return status?.bootstrap_mode ? new URL('/', serverUrl).href : null;
}

/**
 * Browser and system of a stored User-Agent header, for the list of signed-in devices. A small table of
 * the browsers and systems a household uses, not a full parser: a member recognises "Firefox on
 * Windows"; anything else is "Unknown" rather than a guess. Order matters: most browsers also claim to
 * be Chrome and Safari, so the specific tokens are tried first.
 */
export interface ParsedAgent {
  browser: string;
  browser_version: string | null;
  system: string;
}

const BROWSERS: { name: string; token: RegExp }[] = [
  // Hearth's desktop app: Electron's default agent names Electron (and Chrome); it is the app, not a browser.
  { name: 'Hearth app', token: /Electron\/(\d+)/ },
  { name: 'Samsung Internet', token: /SamsungBrowser\/(\d+)/ },
  { name: 'Edge', token: /Edg(?:e|A|iOS)?\/(\d+)/ },
  { name: 'Opera', token: /(?:OPR|OPT)\/(\d+)/ },
  { name: 'Firefox', token: /(?:Firefox|FxiOS)\/(\d+)/ },
  { name: 'Chrome', token: /(?:Chrome|CriOS)\/(\d+)/ },
  // Safari says its version in Version/; a bare Safari token without it (an in-app web view) is still Safari.
  { name: 'Safari', token: /Version\/(\d+)(?:[.\d]*) (?:Mobile\/\S+ )?Safari\// },
  { name: 'Safari', token: /AppleWebKit\/.*\bSafari\/()/ },
];

const SYSTEMS: { name: string; token: RegExp }[] = [
  { name: 'Windows', token: /Windows NT|Windows Phone|Win64|Win32/ },
  // iPadOS 13+ Safari asks for desktop sites and says Macintosh: such an iPad shows as macOS.
  { name: 'iPadOS', token: /iPad/ },
  { name: 'iOS', token: /iPhone|iPod/ },
  { name: 'ChromeOS', token: /CrOS/ },
  { name: 'Android', token: /Android/ },
  { name: 'macOS', token: /Macintosh|Mac OS X/ },
  { name: 'Linux', token: /Linux|X11/ },
];

export const UNKNOWN = 'Unknown';

export function parseUserAgent(ua: string | null | undefined): ParsedAgent {
  if (!ua) return { browser: UNKNOWN, browser_version: null, system: UNKNOWN };
  let browser = UNKNOWN;
  let version: string | null = null;
  for (const b of BROWSERS) {
    const m = b.token.exec(ua);
    if (m) {
      browser = b.name;
      version = m[1] || null;
      break;
    }
  }
  const system = SYSTEMS.find((s) => s.token.test(ua))?.name ?? UNKNOWN;
  return { browser, browser_version: version, system };
}

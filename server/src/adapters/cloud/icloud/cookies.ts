/**
 * The cookies Apple's services set, kept in the credential's session (JSON) and sent back to the hosts
 * they belong to. Apple's web session lives in these cookies (X-APPLE-WEBAUTH-*), so they must survive a
 * restart; a cookie for `.icloud.com` must never reach idmsa.apple.com or a foreign host.
 */

export interface StoredCookie {
  name: string;
  value: string;
  /** Lowercase host or domain, without a leading dot. */
  domain: string;
  /** true: only the host that set it (no Domain attribute). */
  hostOnly: boolean;
  /** Epoch ms; null = until the session ends (Apple's session cookies are kept: the session is ours to keep). */
  expires: number | null;
}

function parseSetCookie(header: string, host: string, now: number): StoredCookie | null {
  const [pair, ...attrs] = header.split(';');
  const eq = pair?.indexOf('=') ?? -1;
  if (!pair || eq <= 0) return null;
  const cookie: StoredCookie = { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), domain: host, hostOnly: true, expires: null };
  for (const attr of attrs) {
    const i = attr.indexOf('=');
    const key = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
    const val = i < 0 ? '' : attr.slice(i + 1).trim();
    if (key === 'domain' && val) {
      const domain = val.replace(/^\./, '').toLowerCase();
      // A server may only set cookies for itself or a parent domain of itself.
      if (!domainMatches(host, domain)) return null;
      cookie.domain = domain;
      cookie.hostOnly = false;
    } else if (key === 'max-age' && /^-?\d+$/.test(val)) {
      cookie.expires = now + Number(val) * 1000;
    } else if (key === 'expires' && cookie.expires === null) {
      const t = Date.parse(val.replace(/-/g, ' '));
      if (Number.isFinite(t)) cookie.expires = t;
    }
  }
  return cookie;
}

function domainMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith('.' + domain);
}

export class CookieJar {
  private cookies: StoredCookie[];

  constructor(stored: StoredCookie[] = []) {
    this.cookies = stored.filter((c) => typeof c?.name === 'string' && typeof c.value === 'string' && typeof c.domain === 'string');
  }

  /** Takes the Set-Cookie headers of an answer from `host`. */
  store(host: string, setCookies: string[], now = Date.now()): void {
    for (const header of setCookies) {
      const c = parseSetCookie(header, host.toLowerCase(), now);
      if (!c) continue;
      this.cookies = this.cookies.filter((o) => !(o.name === c.name && o.domain === c.domain));
      if (c.expires === null || c.expires > now) this.cookies.push(c);
    }
  }

  /** The Cookie header for a request to `host`, or null when none applies. */
  headerFor(host: string, now = Date.now()): string | null {
    const h = host.toLowerCase();
    const fit = this.cookies.filter((c) => (c.expires === null || c.expires > now) && (c.hostOnly ? c.domain === h : domainMatches(h, c.domain)));
    return fit.length ? fit.map((c) => `${c.name}=${c.value}`).join('; ') : null;
  }

  toJSON(): StoredCookie[] {
    return this.cookies.map((c) => ({ ...c }));
  }
}

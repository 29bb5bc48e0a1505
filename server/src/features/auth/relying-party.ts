/**
 * The WebAuthn relying party a request speaks to: the origin the browser shows, and its host name as
 * the relying party id. Passkeys are made for, and only work at, that host name.
 *
 * Where it comes from: HEARTH_PUBLIC_ORIGIN when set (one fixed address, e.g. behind a proxy with a
 * public name); otherwise the request itself: its scheme and Host header, or behind a trusted proxy
 * (HEARTH_TRUST_PROXY) `X-Forwarded-Proto` and `X-Forwarded-Host`. An `Origin` header that names another
 * origin is refused for ceremonies (a page elsewhere cannot start one for this one).
 *
 * Browsers allow WebAuthn only in a secure context with a domain name: HTTPS, or `localhost` over plain
 * HTTP (127.0.0.1 is a secure context too, but an address, so no passkeys there). A LAN address over HTTP (http://192.168.1.20:8080) and any IP address (even over HTTPS, an IP is
 * no relying party id) cannot use passkeys: `unavailableReason` says which, for
 * getBrowserAuthCapabilities and the UI to explain in words. README.md says how to give Hearth a name
 * with HTTPS on the LAN.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { Forbidden } from '../../platform/http/errors.ts';

export type PasskeyUnavailableReason = 'insecure_transport' | 'ip_address';

export interface RelyingParty {
  origin: string;
  rpId: string;
  /** Plain HTTP to something other than localhost. */
  insecureTransport: boolean;
  unavailableReason: PasskeyUnavailableReason | null;
}

/** Loopback names and addresses: browsers count plain HTTP to them as a secure context. */
const isLoopback = (host: string) => host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]';
const isIpAddress = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || host.includes(':');

/** The relying party for `origin` (scheme://host[:port]). */
export function relyingPartyAt(origin: string): RelyingParty {
  const url = new URL(origin);
  const host = url.hostname.toLowerCase();
  const insecureTransport = url.protocol !== 'https:' && !isLoopback(host);
  const unavailableReason: PasskeyUnavailableReason | null = isIpAddress(host) ? 'ip_address' : insecureTransport ? 'insecure_transport' : null;
  return { origin: url.origin, rpId: host, insecureTransport, unavailableReason };
}

/** The origin this request came to (see the header). */
export function requestOrigin(c: Context<AppEnv>, trustProxy: boolean, publicOrigin: string | null): string {
  if (publicOrigin) return publicOrigin;
  const url = new URL(c.req.url);
  const forwardedProto = trustProxy ? c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  const forwardedHost = trustProxy ? c.req.header('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : url.protocol.replace(':', '');
  const host = forwardedHost || c.req.header('host') || url.host;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return url.origin;
  }
}

/**
 * The relying party for a ceremony: the request's, checked against the `Origin` header the browser
 * sends with the call (a page of another origin gets 403 `origin_mismatch`).
 */
export function ceremonyParty(c: Context<AppEnv>, trustProxy: boolean, publicOrigin: string | null): RelyingParty {
  const party = relyingPartyAt(requestOrigin(c, trustProxy, publicOrigin));
  const sent = c.req.header('origin');
  if (sent && sent !== party.origin) {
    throw new Forbidden(`This request came from ${sent}, not from ${party.origin}, where Hearth is open.`, 'origin_mismatch');
  }
  return party;
}

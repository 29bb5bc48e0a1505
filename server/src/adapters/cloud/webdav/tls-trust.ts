/**
 * Which certificates a WebDAV server may present. Node's bundled roots plus the system's trust store (a
 * household's own CA installed on this machine counts), and, when the person chose it, one self-signed
 * certificate named by its SHA-256 fingerprint (a NAS out of the box). The fingerprint is an exception, as a
 * browser's: a certificate that verifies is accepted as always; one that does not is accepted only when it is
 * exactly the trusted one, so a different certificate later is refused again and the person asked again.
 */
import fs from 'node:fs';
import tls from 'node:tls';
import { ProviderError } from '../provider.ts';

/** Where Debian and Ubuntu keep the system's trust store (before Node can read it itself, 22.15+). */
const DEBIAN_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

function systemCertificates(): string[] {
  const withSystemStore = tls as { getCACertificates?: (type: 'system') => string[] };
  if (typeof withSystemStore.getCACertificates === 'function') return withSystemStore.getCACertificates('system');
  try {
    return [fs.readFileSync(DEBIAN_BUNDLE, 'utf8')];
  } catch {
    return []; // no system store on this machine: the bundled roots still apply
  }
}

let context: tls.SecureContext | null = null;

/** One secure context for every connection: parsing ~150 roots per connection would cost more than the request. */
export function trustContext(): tls.SecureContext {
  context ??= tls.createSecureContext({ ca: [...tls.rootCertificates, ...systemCertificates()] });
  return context;
}

/** `AB:CD:…` (Node's spelling of fingerprint256) from hex with or without colons, any case; null when not 32 bytes. */
export function normaliseFingerprint(input: string): string | null {
  const hex = input.replace(/[\s:]/g, '').toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) return null;
  return hex.match(/../g)!.join(':');
}

/**
 * Accepts or refuses a finished handshake. Called before the first byte of a request is written, so a refused
 * server never sees the Authorization header.
 */
export function checkPeer(socket: tls.TLSSocket, trustedFingerprint: string | null): ProviderError | null {
  if (socket.authorized) return null;
  const fingerprint = socket.getPeerCertificate().fingerprint256 ?? '';
  if (trustedFingerprint && fingerprint === trustedFingerprint) return null;
  const why = String(socket.authorizationError ?? 'it does not verify');
  const message = trustedFingerprint
    ? `The server presented a different certificate than the one you trusted (SHA-256 ${fingerprint}). ` +
      'If you replaced it yourself, check the new fingerprint on the server and trust it instead.'
    : `The server's certificate is not trusted (${why}). If this is your own server with a self-signed certificate, ` +
      `check that its SHA-256 fingerprint is ${fingerprint} and enter it as the trusted fingerprint.`;
  return new ProviderError('tls_untrusted', message, false, { fingerprint });
}

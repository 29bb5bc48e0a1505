/**
 * An HTTPS keep-alive agent that decides about the server's certificate itself (tls-trust.ts) and hands the
 * socket to the request only once it is accepted: Node's `rejectUnauthorized` cannot accept one chosen
 * self-signed certificate, and deciding later (on 'secureConnect' beside the request) could let the request's
 * bytes, the password among them, reach a server about to be refused.
 */
import type { Duplex } from 'node:stream';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { checkPeer, trustContext } from './tls-trust.ts';

export class TrustingAgent extends https.Agent {
  constructor(
    private readonly trustedFingerprint: string | null,
    private readonly connectTimeoutMs: number,
  ) {
    super({ keepAlive: true, maxSockets: 8 });
  }

  override createConnection(options: https.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const host = options.host ?? options.hostname ?? 'localhost';
    const socket = tls.connect({
      host,
      port: Number(options.port ?? 443),
      // SNI carries names only, never an IP address (RFC 6066).
      ...(net.isIP(host) ? {} : { servername: host }),
      secureContext: trustContext(),
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    let settled = false;
    const settle = (err: Error | null) => {
      if (settled) return;
      settled = true;
      socket.setTimeout(0);
      if (err) {
        socket.destroy();
        callback?.(err, socket);
      } else callback?.(null, socket);
    };
    socket.setTimeout(this.connectTimeoutMs, () => settle(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })));
    socket.once('secureConnect', () => settle(checkPeer(socket, this.trustedFingerprint)));
    socket.once('error', (e) => settle(e));
    return undefined;
  }
}

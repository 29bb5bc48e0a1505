/**
 * The HTTP listener(s) of the server, which can move to other interfaces while the server runs.
 *
 * Why several sockets and SO_REUSEPORT: "only this machine" is one socket on 127.0.0.1, "every device
 * on the network" is 0.0.0.0 plus [::] (IPv6 only, so that a machine without IPv6 still gets IPv4).
 * Linux refuses a second socket on the same port while another listens on an overlapping address,
 * unless every socket sets SO_REUSEPORT. With it the new sockets are bound first and the old ones
 * closed after, so there is no moment when 127.0.0.1 (the app's own window) is refused.
 *
 * SO_REUSEPORT would also let a second Hearth share the port silently; the first bind therefore
 * probes the port with a plain socket first, so a port already in use still fails with EADDRINUSE.
 *
 * Closing is graceful: a replaced socket stops accepting at once, idle kept-alive connections are
 * closed, and requests in flight (an upload over Wi-Fi) finish on their connection.
 *
 * Idle kept-alive connections stay open IDLE_KEEP_ALIVE_MS, not Node's 5 s. Browsers and HTTP clients keep
 * an idle socket for much longer (Chromium about 5 min) and reuse it; when the server closes it at the moment
 * a request goes out, that request fails with a reset. Browsers send a GET again, but not a POST or PUT (an
 * upload chunk, an album edit), and scripted clients (Playwright's, Node's fetch) resend nothing. The longer
 * the server waits, the rarer that race; the cost is an idle socket per device for a minute.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BindTarget {
  host: string;
  /** IPv6 wildcard without the IPv4 part (that is a separate socket). */
  ipv6Only?: boolean;
  /** A machine without IPv6 cannot bind [::]: that socket is skipped rather than failing the switch. */
  optional?: boolean;
}

export interface ListeningAddress {
  address: string;
  family: 'IPv4' | 'IPv6';
  port: number;
}

/** How long an idle kept-alive connection is kept (see above): longer than common clients' 60 s. */
export const IDLE_KEEP_ALIVE_MS = 65_000;

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Errors of an optional socket that mean "this machine has no such address family". */
const UNSUPPORTED = new Set(['EAFNOSUPPORT', 'EADDRNOTAVAIL', 'EINVAL']);

export class HttpListener {
  private servers: http.Server[] = [];
  private boundPort: number | null = null;
  /** Switches run one at a time: a second waits for the first (two admins clicking at once). */
  private switching: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly handler: RequestListener,
    private readonly port: number,
    serverOptions: http.ServerOptions = {},
  ) {
    this.serverOptions = { keepAliveTimeout: IDLE_KEEP_ALIVE_MS, ...serverOptions };
  }

  private readonly serverOptions: http.ServerOptions;

  /** The port every socket shares (the one picked for port 0 on the first bind). */
  get actualPort(): number | null {
    return this.boundPort;
  }

  addresses(): ListeningAddress[] {
    return this.servers.flatMap((s) => {
      const a = s.address() as AddressInfo | null;
      return a ? [{ address: a.address, family: a.family === 'IPv6' ? ('IPv6' as const) : ('IPv4' as const), port: a.port }] : [];
    });
  }

  /**
   * Listens on `targets` and then closes the sockets listening before. When a required target cannot
   * be bound, the new sockets are closed and the old ones keep serving: the error is thrown.
   */
  bind(targets: BindTarget[]): Promise<ListeningAddress[]> {
    const run = this.switching.then(() => this.switchTo(targets));
    this.switching = run.catch(() => undefined);
    return run;
  }

  private async switchTo(targets: BindTarget[]): Promise<ListeningAddress[]> {
    if (this.boundPort === null) this.boundPort = await probePort(targets[0]!.host, this.port);
    const fresh: http.Server[] = [];
    try {
      for (const target of targets) {
        const server = http.createServer(this.serverOptions, this.handler);
        // Set on the server too: not every Node release reads it from the options.
        if (this.serverOptions.keepAliveTimeout !== undefined) server.keepAliveTimeout = this.serverOptions.keepAliveTimeout;
        try {
          await listen(server, target, this.boundPort);
          fresh.push(server);
        } catch (e) {
          if (!(target.optional && UNSUPPORTED.has((e as NodeJS.ErrnoException).code ?? ''))) throw e;
        }
      }
    } catch (e) {
      await Promise.all(fresh.map((s) => closeGracefully(s)));
      throw e;
    }
    const old = this.servers;
    this.servers = fresh;
    // Not awaited: a request in flight on an old socket may take minutes (an upload); it finishes there.
    for (const s of old) void closeGracefully(s);
    return this.addresses();
  }

  /** Stops accepting everywhere; requests in flight finish unless `force` (then every connection ends). */
  async close({ force = false } = {}): Promise<void> {
    await this.switching;
    const old = this.servers;
    this.servers = [];
    await Promise.all(old.map((s) => closeGracefully(s, force)));
  }
}

function listen(server: http.Server, target: BindTarget, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen({ host: target.host, port, ipv6Only: target.ipv6Only ?? false, reusePort: true }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Binds `port` once without SO_REUSEPORT (fails if anyone listens there) and returns the port got. */
async function probePort(host: string, port: number): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port }, () => resolve());
  });
  const got = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return got;
}

function closeGracefully(server: http.Server, force = false): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    // Connections that finish their request later become idle: close those too, until none is left.
    const sweep = setInterval(() => server.closeIdleConnections(), 500);
    sweep.unref();
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    if (force) server.closeAllConnections();
    else server.closeIdleConnections();
  });
}

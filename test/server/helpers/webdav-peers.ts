/**
 * Small loopback peers for what rclone cannot show: a web server that is not WebDAV, one that redirects to
 * another host, a WebDAV answer with hostile names, and a TCP proxy in front of rclone that records requests
 * and cuts a response after N bytes. Each is a real server speaking HTTP (or raw TCP) on 127.0.0.1.
 */
import http from 'node:http';
import net from 'node:net';

export interface Peer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A server on a free loopback port; `close` ends its open connections too. */
export async function listen(server: http.Server | net.Server): Promise<Peer> {
  const open = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** Answers every request with `handler`, recording each one (method, URL, headers). */
export async function recordingServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Peer & { requests: RecordedRequest[] }> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    handler(req, res);
  });
  return { ...(await listen(server)), requests };
}

export interface CuttingProxy extends Peer {
  /** Everything clients sent, per connection (request heads and bodies, as text). */
  sent: string[];
  /** The next connection's answer is cut after this many bytes (then back to null: pass everything). */
  cutNextAfter: number | null;
}

/** A TCP proxy to `upstreamPort` on loopback, to drop a connection in the middle of a file. */
export async function cuttingProxy(upstreamPort: number): Promise<CuttingProxy> {
  const proxy = { sent: [] as string[], cutNextAfter: null as number | null };
  const server = net.createServer((client) => {
    const index = proxy.sent.push('') - 1;
    const cutAfter = proxy.cutNextAfter;
    proxy.cutNextAfter = null;
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    let passed = 0;
    client.on('data', (d: Buffer) => {
      proxy.sent[index] += d.toString('latin1');
      upstream.write(d);
    });
    let cut = false;
    upstream.on('data', (d: Buffer) => {
      if (cut) return;
      if (cutAfter !== null && passed + d.length >= cutAfter) {
        // end(), not destroy(): the bytes before the cut must reach the client, then the connection goes.
        cut = true;
        upstream.destroy();
        client.end(d.subarray(0, cutAfter - passed));
        return;
      }
      passed += d.length;
      client.write(d);
    });
    const end = () => {
      if (!cut) client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  const peer = await listen(server);
  return Object.assign(proxy, peer);
}

/**
 * A slow line in front of a loopback server, for browser specs that must act while something is still under way
 * (cancel an import while it runs): a TCP proxy that passes the requests on at once and the answers back at a fixed
 * pace (`bytesPerTick` every `tickMs` per connection). Nothing is changed in the bytes.
 */
import net from 'node:net';

export interface SlowProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startSlowProxy(targetPort: number, { bytesPerTick = 256, tickMs = 100 } = {}): Promise<SlowProxy> {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    open.add(client).add(upstream);
    const queue: Buffer[] = [];
    let upstreamEnded = false;
    let timer: ReturnType<typeof setInterval> | null = null;

    const finish = () => {
      if (timer) clearInterval(timer);
      timer = null;
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    const pump = () => {
      let budget = bytesPerTick;
      while (budget > 0 && queue.length > 0) {
        const head = queue[0]!;
        const part = head.subarray(0, budget);
        if (part.length === head.length) queue.shift();
        else queue[0] = head.subarray(part.length);
        client.write(part);
        budget -= part.length;
      }
      if (queue.length === 0) {
        if (timer) clearInterval(timer);
        timer = null;
        if (upstreamEnded) client.end();
        else upstream.resume();
      }
    };

    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      queue.push(chunk);
      // Hold the server back while the slow side catches up (a whole file never waits here).
      upstream.pause();
      timer ??= setInterval(pump, tickMs);
    });
    upstream.on('end', () => {
      upstreamEnded = true;
      if (!timer && queue.length === 0) client.end();
    });
    client.on('close', finish);
    client.on('error', finish);
    upstream.on('error', finish);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The listener keeps an idle kept-alive connection open well past Node's 5 s default (listener.ts,
 * IDLE_KEEP_ALIVE_MS): a client that reuses its socket after a pause is not reset. Real sockets on loopback.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpListener, IDLE_KEEP_ALIVE_MS } from '../../server/src/platform/http/listener.ts';

/** Sends one GET on `socket` and resolves with its status line once the whole answer has arrived. */
function get(socket: net.Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const onData = (chunk: Buffer) => {
      got += chunk.toString('latin1');
      if (got.endsWith('ok')) {
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve(got.split('\r\n')[0]!);
      }
    };
    const onClose = () => reject(new Error(`the server closed the connection (got ${JSON.stringify(got)})`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
  });
}

test('an idle kept-alive connection is still served after a pause longer than Node’s default 5 s', async () => {
  assert.ok(IDLE_KEEP_ALIVE_MS >= 60_000);
  const listener = new HttpListener((_req, res) => {
    res.setHeader('content-length', '2');
    res.end('ok');
  }, 0);
  await listener.bind([{ host: '127.0.0.1' }]);
  const socket = net.connect(listener.actualPort!, '127.0.0.1');
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    assert.equal(await get(socket, '/first'), 'HTTP/1.1 200 OK');
    await sleep(6_000); // Node's default keepAliveTimeout is 5 s: the socket would be closed by now
    assert.equal(socket.destroyed, false);
    assert.equal(await get(socket, '/second'), 'HTTP/1.1 200 OK');
  } finally {
    socket.destroy();
    await listener.close({ force: true });
  }
});

/**
 * WebDAV downloads from rclone over corpus files: whole files byte for byte; a connection cut mid-file (a TCP
 * proxy in front of rclone) fails retryable with the bytes so far on disk, and the next attempt resumes with a
 * Range request to identical bytes; a file changed between attempts comes whole (If-Range), never spliced; a
 * deleted file is not_found; a 403 file is not_found, a 401 session_expired; a stalled server times out; an abort
 * stops the transfer.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ProviderError, type ProviderState, type RemoteItem } from '../../../server/src/adapters/cloud/provider.ts';
import { WebDavProvider } from '../../../server/src/adapters/cloud/webdav/index.ts';
import { startRcloneWebdav, type RcloneWebdav } from '../helpers/rclone-webdav.ts';
import { cuttingProxy, recordingServer, type CuttingProxy } from '../helpers/webdav-peers.ts';
import { makeRemoteTree } from '../helpers/webdav-tree.ts';

const USER = 'anna';
const PASS = 'download-pass';
const signal = () => AbortSignal.timeout(30_000);
const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => assert.fail('expected a ProviderError, it succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProviderError, String(error));
  return error;
}

describe('WebDAV downloads from rclone', () => {
  const provider = new WebDavProvider({ idleTimeoutMs: 10_000 });
  let dir: string;
  let out: string;
  let server: RcloneWebdav;
  let proxy: CuttingProxy;
  let state: ProviderState;
  let items: Map<string, RemoteItem>;

  const listItems = async () => {
    const library = provider.open(state, { folder: '' });
    try {
      const found = new Map<string, RemoteItem>();
      for await (const entry of library.list(signal())) if (!('problem' in entry)) found.set(entry.id, entry);
      return found;
    } finally {
      await library.close();
    }
  };

  before(async () => {
    dir = makeRemoteTree();
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-webdav-out-'));
    server = await startRcloneWebdav({ dir, user: USER, pass: PASS });
    proxy = await cuttingProxy(server.port);
    state = (await provider.signIn({ url: proxy.url, username: USER, password: PASS }, signal())).state;
    items = await listItems();
  });
  after(async () => {
    await proxy?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  test('every file arrives whole: same bytes, progress up to its size', async () => {
    const library = provider.open(state, { folder: '' });
    try {
      assert.equal(items.size, 7);
      for (const item of items.values()) {
        const dest = path.join(out, `whole-${crypto.randomUUID()}`);
        let progress = 0;
        await library.download(item, dest, { offset: 0, signal: signal(), onProgress: (bytes) => (progress = bytes) });
        assert.equal(sha256(dest), sha256(path.join(dir, ...item.id.split('/'))), item.id);
        assert.equal(fs.statSync(dest).size, item.size);
        assert.equal(progress, item.size);
      }
    } finally {
      await library.close();
    }
  });

  test('a name the server spells in NFD is listed as NFC and fetched with the server\'s own spelling', async () => {
    const nfd = 'Cafe\u0301 cre\u0300me.jpg';
    fs.copyFileSync(path.join(dir, 'top.jpg'), path.join(dir, 'Photos', nfd));
    const library = provider.open(state, { folder: 'Photos' });
    try {
      let found: RemoteItem | undefined;
      for await (const entry of library.list(signal())) if (!('problem' in entry) && entry.name.startsWith('Caf')) found = entry;
      assert.equal(found?.id, 'Café crème.jpg'.normalize('NFC'));
      assert.notEqual(found.id, nfd);
      const dest = path.join(out, 'nfd.jpg');
      await library.download(found, dest, { offset: 0, signal: signal() });
      assert.equal(sha256(dest), sha256(path.join(dir, 'top.jpg')));
    } finally {
      await library.close();
      fs.rmSync(path.join(dir, 'Photos', nfd));
    }
  });

  test('a connection cut mid-file is unreachable and retryable, and resuming from the partial size gives identical bytes', async () => {
    const item = items.get('Videos/iphone5 gps.mov')!;
    const source = path.join(dir, 'Videos', 'iphone5 gps.mov');
    const dest = path.join(out, 'cut.mov');
    // A fresh library: a fresh connection through the proxy, the one it cuts.
    const first = provider.open(state, { folder: '' });
    proxy.cutNextAfter = 600_000;
    const error = await providerError(first.download(item, dest, { offset: 0, signal: signal() })).finally(() => first.close());
    assert.equal(error.code, 'unreachable');
    assert.equal(error.retryable, true);
    const partial = fs.statSync(dest).size;
    assert.ok(partial > 500_000 && partial < 600_000, `partial ${partial}`);
    assert.deepEqual(fs.readFileSync(dest), fs.readFileSync(source).subarray(0, partial), 'the bytes so far are the file’s first bytes');

    const connectionsBefore = proxy.sent.length;
    const second = provider.open(state, { folder: '' });
    const progress: number[] = [];
    try {
      await second.download(item, dest, { offset: partial, signal: signal(), onProgress: (b) => progress.push(b) });
    } finally {
      await second.close();
    }
    assert.equal(sha256(dest), sha256(source));
    assert.ok(progress[0]! > partial, 'progress counts the bytes already there');
    const resumed = proxy.sent.slice(connectionsBefore).join('');
    assert.match(resumed, new RegExp(`^range: bytes=${partial}-\\r$`, 'im'));
    assert.match(resumed, new RegExp(`^if-range: "${item.version}"\\r$`, 'im'));
  });

  test('an offset at the full size is already done (416)', async () => {
    const item = items.get('top.jpg')!;
    const dest = path.join(out, 'done.jpg');
    fs.copyFileSync(path.join(dir, 'top.jpg'), dest);
    const library = provider.open(state, { folder: '' });
    try {
      await library.download(item, dest, { offset: item.size!, signal: signal() });
    } finally {
      await library.close();
    }
    assert.equal(sha256(dest), sha256(path.join(dir, 'top.jpg')));
  });

  test('a file changed between attempts comes whole (If-Range), not spliced onto the old bytes', async () => {
    const item = items.get('Photos/2023/DSCN0010.jpg')!;
    const source = path.join(dir, 'Photos', '2023', 'DSCN0010.jpg');
    const dest = path.join(out, 'changed.jpg');
    fs.writeFileSync(dest, fs.readFileSync(source).subarray(0, 1000));
    // Same size, new bytes and a new time: only the validator can tell.
    const bytes = fs.readFileSync(source);
    bytes.fill(0x41, 500, 1500);
    fs.writeFileSync(source, bytes);
    fs.utimesSync(source, new Date(), new Date(Date.now() + 10_000));
    const library = provider.open(state, { folder: '' });
    try {
      await library.download(item, dest, { offset: 1000, signal: signal() });
    } finally {
      await library.close();
    }
    assert.equal(sha256(dest), sha256(source));
  });

  test('a file deleted since the listing is not_found', async () => {
    const item = items.get('.hidden.jpg')!;
    fs.rmSync(path.join(dir, '.hidden.jpg'));
    const library = provider.open(state, { folder: '' });
    try {
      const error = await providerError(library.download(item, path.join(out, 'gone.jpg'), { offset: 0, signal: signal() }));
      assert.equal(error.code, 'not_found');
      assert.equal(error.retryable, false);
    } finally {
      await library.close();
    }
  });

  test('an abort stops the transfer with its reason', async () => {
    const item = items.get('Videos/iphone5 gps.mov')!;
    const controller = new AbortController();
    const library = provider.open(state, { folder: '' });
    try {
      await assert.rejects(
        library.download(item, path.join(out, 'aborted.mov'), {
          offset: 0,
          signal: controller.signal,
          onProgress: () => controller.abort(new Error('run cancelled')),
        }),
        /run cancelled/,
      );
    } finally {
      await library.close();
    }
    assert.ok(fs.statSync(path.join(out, 'aborted.mov')).size < item.size!);
  });
});

describe('WebDAV downloads from small loopback peers', () => {
  test('a file this account may not read is not_found (the run goes on); a refused password is session_expired', async () => {
    const peer = await recordingServer((req, res) => res.writeHead(req.url === '/private.jpg' ? 403 : 401).end());
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-webdav-refused-'));
    const state: ProviderState = { identity: 'x', displayName: 'x', publicConfig: { url: peer.url, username: USER }, secrets: { password: PASS }, session: null };
    const library = new WebDavProvider().open(state, { folder: '' });
    const item = (id: string): RemoteItem => ({ id, version: 'v1', name: id, folder: [], size: 10, facts: {} });
    try {
      const forbidden = await providerError(library.download(item('private.jpg'), path.join(out, 'a'), { offset: 0, signal: signal() }));
      assert.equal(forbidden.code, 'not_found');
      assert.match(forbidden.message, /HTTP 403/);
      const refused = await providerError(library.download(item('any.jpg'), path.join(out, 'b'), { offset: 0, signal: signal() }));
      assert.equal(refused.code, 'session_expired');
      assert.ok(!fs.existsSync(path.join(out, 'a')) && !fs.existsSync(path.join(out, 'b')), 'nothing written for a refusal');
    } finally {
      await library.close();
      await peer.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });


  test('no byte for the idle timeout is unreachable and retryable, with the bytes so far kept', async () => {
    const stalling = await recordingServer((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write(Buffer.alloc(10, 7));
    });
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-webdav-stall-'));
    const provider = new WebDavProvider({ idleTimeoutMs: 300 });
    const state: ProviderState = { identity: 'x', displayName: 'x', publicConfig: { url: stalling.url, username: USER }, secrets: { password: PASS }, session: null };
    const library = provider.open(state, { folder: '' });
    const item: RemoteItem = { id: 'slow.jpg', version: 'v1', name: 'slow.jpg', folder: [], size: 1000, facts: {} };
    try {
      const started = Date.now();
      const error = await providerError(library.download(item, path.join(out, 'slow.jpg'), { offset: 0, signal: signal() }));
      assert.equal(error.code, 'unreachable');
      assert.equal(error.retryable, true);
      assert.ok(Date.now() - started < 5_000);
      assert.equal(fs.statSync(path.join(out, 'slow.jpg')).size, 10);
      assert.equal(stalling.requests[0]?.url, '/slow.jpg');
    } finally {
      await library.close();
      await stalling.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

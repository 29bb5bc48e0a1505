/**
 * WebDAV sign-in, reconnect, scope and folder picker against a real rclone WebDAV server on loopback, and the
 * refusals against small loopback peers: a wrong password, nothing listening, a web server that is not WebDAV,
 * a redirect to another host (which must never see the password).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ProviderError, type ProviderState } from '../../../server/src/adapters/cloud/provider.ts';
import { WebDavProvider } from '../../../server/src/adapters/cloud/webdav/index.ts';
import { freePort, startRcloneWebdav, type RcloneWebdav } from '../helpers/rclone-webdav.ts';
import { listen, recordingServer } from '../helpers/webdav-peers.ts';
import { CORPUS } from '../media/corpus.ts';

const USER = 'anna';
const PASS = 'app-token-1234';
const signal = () => AbortSignal.timeout(20_000);

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<ProviderError> {
  const error = await promise.then(
    () => assert.fail(`expected ${code}, it succeeded`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return error;
}

describe('WebDAV sign-in against rclone', () => {
  const provider = new WebDavProvider();
  let dir: string;
  let server: RcloneWebdav;
  let state: ProviderState;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-webdav-signin-'));
    for (const folder of ['Photos/2023', 'Photos/2022', 'Photos/Été', 'Documents']) fs.mkdirSync(path.join(dir, folder), { recursive: true });
    fs.copyFileSync(path.join(CORPUS, 'exif', 'Canon_40D.jpg'), path.join(dir, 'Photos', 'Canon_40D.jpg'));
    server = await startRcloneWebdav({ dir, user: USER, pass: PASS });
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the descriptor offers the form, no challenge and the folder as scope', () => {
    const d = provider.descriptor;
    assert.equal(d.id, 'webdav');
    assert.equal(d.title, 'WebDAV (Nextcloud, ownCloud, NAS)');
    assert.deepEqual(d.form_fields.map((f) => [f.name, f.type, f.required]), [
      ['url', 'url', true],
      ['username', 'text', true],
      ['password', 'password', true],
      ['trusted_fingerprint', 'text', false],
    ]);
    assert.match(d.form_fields[2]!.help_text ?? '', /app password/);
    assert.deepEqual(d.challenge_fields, []);
    assert.deepEqual(d.scope_fields.map((f) => f.name), ['folder']);
    assert.match(d.security_note, /nothing there is changed, written or deleted/);
  });

  test('signs in with the right password; the state keeps the password secret', async () => {
    const outcome = await provider.signIn({ url: server.url.replace(/\/$/, ''), username: USER, password: PASS }, signal());
    assert.equal(outcome.status, 'connected');
    state = outcome.state;
    assert.equal(state.identity, `${server.url}|${USER}`);
    assert.equal(state.displayName, `${USER}@127.0.0.1:${server.port}`);
    assert.deepEqual(state.publicConfig, { url: server.url, username: USER });
    assert.deepEqual(state.secrets, { password: PASS });
    assert.equal(state.session, null);
    assert.ok(!JSON.stringify(state.publicConfig).includes(PASS));
  });

  test('a wrong password is auth_failed, and the message does not repeat it', async () => {
    const error = await rejectsWith(provider.signIn({ url: server.url, username: USER, password: 'wrong-secret' }, signal()), 'auth_failed');
    assert.ok(!error.message.includes('wrong-secret'));
  });

  test('malformed inputs are bad_input naming the field', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ url: '', username: USER, password: PASS }, 'url'],
      [{ url: 'ftp://127.0.0.1/', username: USER, password: PASS }, 'url'],
      [{ url: `http://${USER}:${PASS}@127.0.0.1:${server.port}/`, username: USER, password: PASS }, 'url'],
      [{ url: server.url, username: '', password: PASS }, 'username'],
      [{ url: server.url, username: USER, password: '' }, 'password'],
      [{ url: server.url, username: USER, password: PASS, trusted_fingerprint: 'AB:CD' }, 'trusted_fingerprint'],
    ];
    for (const [inputs, field] of cases) {
      const error = await rejectsWith(provider.signIn(inputs, signal()), 'bad_input');
      assert.equal(error.details.field, field, JSON.stringify(inputs));
    }
  });

  test('reconnect reuses the stored password; a refused stored one is session_expired, a refused new one auth_failed', async () => {
    const again = await provider.reconnect(state, {}, signal());
    assert.equal(again.status, 'connected');
    assert.deepEqual(again.state.secrets, { password: PASS });
    const stale = { ...state, secrets: { password: 'old-token' } };
    await rejectsWith(provider.reconnect(stale, {}, signal()), 'session_expired');
    await rejectsWith(provider.reconnect(stale, { password: 'another-wrong' }, signal()), 'auth_failed');
    const fixed = await provider.reconnect(stale, { password: PASS }, signal());
    assert.deepEqual(fixed.state.secrets, { password: PASS });
    await rejectsWith(provider.verifyChallenge(), 'bad_input');
  });

  test('checkScope accepts a folder (normalised), refuses a missing one and a file', async () => {
    assert.deepEqual(await provider.checkScope(state, { folder: '/Photos/Été/' }, signal()), { folder: 'Photos/Été' });
    assert.deepEqual(await provider.checkScope(state, { folder: '' }, signal()), { folder: '' });
    await rejectsWith(provider.checkScope(state, { folder: 'Nope' }, signal()), 'not_found');
    await rejectsWith(provider.checkScope(state, { folder: 'Photos/Canon_40D.jpg' }, signal()), 'not_found');
    const error = await rejectsWith(provider.checkScope(state, { folder: 'Photos/../..' }, signal()), 'bad_input');
    assert.equal(error.details.field, 'folder');
  });

  test('browse lists the sub-folders only, sorted by name', async () => {
    assert.deepEqual(await provider.browse(state, '', signal()), [
      { name: 'Documents', path: 'Documents' },
      { name: 'Photos', path: 'Photos' },
    ]);
    assert.deepEqual(await provider.browse(state, 'Photos', signal()), [
      { name: '2022', path: 'Photos/2022' },
      { name: '2023', path: 'Photos/2023' },
      { name: 'Été', path: 'Photos/Été' },
    ]);
  });
});

describe('WebDAV sign-in refusals', () => {
  const provider = new WebDavProvider({ idleTimeoutMs: 5_000 });

  test('nothing listening is unreachable and retryable', async () => {
    const port = await freePort();
    const error = await rejectsWith(provider.signIn({ url: `http://127.0.0.1:${port}/dav/`, username: USER, password: PASS }, signal()), 'unreachable');
    assert.equal(error.retryable, true);
  });

  test('a name that does not resolve is unreachable', async () => {
    const error = await rejectsWith(provider.signIn({ url: 'https://hearth-test.invalid/dav/', username: USER, password: PASS }, signal()), 'unreachable');
    assert.match(error.message, /does not resolve/);
  });

  test('a server that accepts but never answers times out as unreachable; one that resets does too', async () => {
    const silent = await listen(net.createServer(() => undefined));
    const resetting = await listen(net.createServer((socket) => socket.resetAndDestroy()));
    const quick = new WebDavProvider({ idleTimeoutMs: 300 });
    try {
      const timedOut = await rejectsWith(quick.signIn({ url: silent.url, username: USER, password: PASS }, signal()), 'unreachable');
      assert.match(timedOut.message, /did not answer in time/);
      assert.equal(timedOut.retryable, true);
      const reset = await rejectsWith(quick.signIn({ url: resetting.url, username: USER, password: PASS }, signal()), 'unreachable');
      assert.equal(reset.retryable, true);
    } finally {
      await silent.close();
      await resetting.close();
    }
  });

  test('a web server that is not WebDAV is protocol', async () => {
    const web = await recordingServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome</html>'));
    try {
      await rejectsWith(provider.signIn({ url: web.url, username: USER, password: PASS }, signal()), 'protocol');
      assert.equal(web.requests[0]?.method, 'PROPFIND');
    } finally {
      await web.close();
    }
  });

  test('503 and 429 are service_unavailable, retryable', async () => {
    for (const status of [503, 429]) {
      const busy = await recordingServer((_req, res) => res.writeHead(status).end());
      try {
        const error = await rejectsWith(provider.signIn({ url: busy.url, username: USER, password: PASS }, signal()), 'service_unavailable');
        assert.equal(error.retryable, true);
      } finally {
        await busy.close();
      }
    }
  });

  test('a redirect to another host is redirect_refused and that host never sees the password', async () => {
    const elsewhere = await recordingServer((_req, res) => res.writeHead(207).end());
    const redirecting = await recordingServer((_req, res) => res.writeHead(302, { location: `${elsewhere.url}dav/` }).end());
    try {
      const error = await rejectsWith(provider.signIn({ url: `${redirecting.url}dav/`, username: USER, password: PASS }, signal()), 'redirect_refused');
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${elsewhere.port}`));
      assert.equal(redirecting.requests.length, 1);
      assert.match(String(redirecting.requests[0]!.headers.authorization), /^Basic /);
      assert.deepEqual(elsewhere.requests, []);
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  });

  test('a redirect within the origin is followed, and the account keeps the address it led to', async () => {
    const moved = await recordingServer((req, res) => {
      if (req.url === '/old/') return void res.writeHead(301, { location: '/dav/' }).end();
      res.writeHead(207, { 'content-type': 'application/xml' });
      res.end('<d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>');
    });
    try {
      const outcome = await provider.signIn({ url: `${moved.url}old/`, username: USER, password: PASS }, signal());
      assert.equal(outcome.state.publicConfig.url, `${moved.url}dav/`);
      assert.deepEqual(moved.requests.map((r) => [r.method, r.url, r.headers.depth]), [
        ['PROPFIND', '/old/', '0'],
        ['PROPFIND', '/dav/', '0'],
      ]);
    } finally {
      await moved.close();
    }
  });

  test('redirects within the origin are followed, at most five', async () => {
    const loop = await recordingServer((req, res) => res.writeHead(301, { location: `${req.url}x/` }).end());
    try {
      await rejectsWith(provider.signIn({ url: loop.url, username: USER, password: PASS }, signal()), 'protocol');
      assert.equal(loop.requests.length, 5);
      assert.deepEqual(loop.requests.map((r) => r.url), ['/', '/x/', '/x/x/', '/x/x/x/', '/x/x/x/x/']);
    } finally {
      await loop.close();
    }
  });
});

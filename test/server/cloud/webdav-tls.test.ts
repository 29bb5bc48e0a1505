/**
 * A NAS with a self-signed certificate: refused with its fingerprint, accepted once the person trusts that
 * fingerprint, and refused again (before any request, so before the password) when another certificate shows up.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ProviderError } from '../../../server/src/adapters/cloud/provider.ts';
import { WebDavProvider } from '../../../server/src/adapters/cloud/webdav/index.ts';
import { makeSelfSignedCert, startRcloneWebdav, type RcloneWebdav, type SelfSignedCert } from '../helpers/rclone-webdav.ts';
import { listen } from '../helpers/webdav-peers.ts';

const USER = 'nas';
const PASS = 'nas-password';
const signal = () => AbortSignal.timeout(20_000);

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => assert.fail('expected a ProviderError, it succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProviderError, String(error));
  return error;
}

describe('WebDAV over HTTPS with a self-signed certificate (rclone --cert/--key)', () => {
  const provider = new WebDavProvider({ idleTimeoutMs: 5_000 });
  let dir: string;
  let certs: string;
  let first: SelfSignedCert;
  let second: SelfSignedCert;
  let server: RcloneWebdav;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-webdav-tls-'));
    certs = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-webdav-certs-'));
    fs.writeFileSync(path.join(dir, 'note.txt'), 'hello');
    first = makeSelfSignedCert(certs, 'nas-first');
    second = makeSelfSignedCert(certs, 'nas-second');
    server = await startRcloneWebdav({ dir, user: USER, pass: PASS, tls: { cert: first.cert, key: first.key } });
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(certs, { recursive: true, force: true });
  });

  test('an untrusted certificate is tls_untrusted with its SHA-256 fingerprint and how to trust it', async () => {
    const error = await providerError(provider.signIn({ url: server.url, username: USER, password: PASS }, signal()));
    assert.equal(error.code, 'tls_untrusted');
    assert.equal(error.details.fingerprint, first.fingerprint);
    assert.match(error.details.fingerprint ?? '', /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.match(error.message, /trusted fingerprint/);
    assert.ok(error.message.includes(first.fingerprint));
  });

  test('trusting that fingerprint connects (typed in lower case without colons) and lists the folder', async () => {
    const typed = first.fingerprint.replaceAll(':', '').toLowerCase();
    const outcome = await provider.signIn({ url: server.url, username: USER, password: PASS, trusted_fingerprint: typed }, signal());
    assert.equal(outcome.status, 'connected');
    assert.equal(outcome.state.publicConfig.trusted_fingerprint, first.fingerprint);
    const library = provider.open(outcome.state, { folder: '' });
    try {
      const names = [];
      for await (const entry of library.list(signal())) names.push('problem' in entry ? entry.reason : entry.name);
      assert.deepEqual(names, ['note.txt']);
    } finally {
      await library.close();
    }
  });

  test('a different certificate at the same address is refused with the pinned fingerprint, before any request', async () => {
    const requests: string[] = [];
    const impostor = https.createServer({ cert: fs.readFileSync(second.cert), key: fs.readFileSync(second.key) }, (req, res) => {
      requests.push(`${req.method} ${String(req.headers.authorization)}`);
      res.writeHead(207).end();
    });
    const peer = await listen(impostor);
    try {
      const url = `https://127.0.0.1:${peer.port}/`;
      const error = await providerError(provider.signIn({ url, username: USER, password: PASS, trusted_fingerprint: first.fingerprint }, signal()));
      assert.equal(error.code, 'tls_untrusted');
      assert.equal(error.details.fingerprint, second.fingerprint);
      assert.match(error.message, /different certificate/);
      assert.deepEqual(requests, [], 'the impostor received a request');
    } finally {
      await peer.close();
    }
  });
});

/**
 * Cloud import through the real app: a member connects a WebDAV account (Debian's rclone serving a folder of corpus
 * files on loopback), binds a folder to a repository and imports it over HTTP; the files come in through the one
 * door (owned by the member, deduplicated by content, original names kept), the run counts and reports every file,
 * a second run fetches nothing, a changed file comes in again, a file deleted remotely stays here, and the
 * credential's states (connected, disconnected, reconnected, removed) hold. Secrets never leave the server.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, problem, signedInHousehold } from '../helpers/api.ts';
import { makeSelfSignedCert, startRcloneWebdav, type RcloneWebdav } from '../helpers/rclone-webdav.ts';
import { listen } from '../helpers/webdav-peers.ts';
import { CORPUS } from '../media/corpus.ts';

const PASS = 'nas-secret-7c1f';

/** The remote folder: photos in nested folders, a copy of one of them, a non-ASCII name, a text file, a fake photo. */
function remoteTree(root: string): void {
  const put = (rel: string, from: string | Buffer) => {
    const abs = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (typeof from === 'string') fs.copyFileSync(path.join(CORPUS, from), abs);
    else fs.writeFileSync(abs, from);
  };
  put('2019/Canon_40D.jpg', 'exif/Canon_40D.jpg');
  put('2019/Trip/Nikon_D70.jpg', 'exif/Nikon_D70.jpg');
  put('Phone/IMG ü 1.jpg', 'exif/Pentax_K10D.jpg');
  put('copy/Canon_40D.jpg', 'exif/Canon_40D.jpg');
  put('notes.txt', Buffer.from('not a photo'));
  put('fake.jpg', Buffer.from('plain text pretending to be a photo'));
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const variant of ['A', 'B'] as const) {
  describe(`cloud import over WebDAV (variant ${variant})`, () => {
    let srv: TestServer;
    let dav: RcloneWebdav;
    let remote: string;
    let anna: Client;
    let ben: Client;
    let admin: Client;
    let repositoryId: string;
    let credentialId: string;
    let firstRunId: string;

    const finished = (c: Client, runId: string) =>
      waitFor(`run ${runId} to finish`, async () => {
        const run = data(c, await c.get(`${V1}/cloud/import-runs/${runId}`));
        return ['queued', 'running'].includes(run.status) ? undefined : run;
      });

    before(async () => {
      remote = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-dav-'));
      remoteTree(remote);
      dav = await startRcloneWebdav({ dir: remote, user: 'anna', pass: PASS });
      srv = await startServer();
      const household = await signedInHousehold(srv.url, variant, ['anna', 'ben'] as const);
      admin = household.admin;
      anna = household.members.anna.client;
      ben = household.members.ben.client;
      repositoryId = srv.container.repositories.primary()!.repository_id;
    });
    after(async () => {
      await srv?.stop({ removeData: true });
      await dav?.close();
      fs.rmSync(remote, { recursive: true, force: true });
    });

    test('the WebDAV provider is offered with its form, challenge and scope fields', async () => {
      const { providers } = data(anna, await anna.get(`${V1}/cloud/providers`));
      const webdav = providers.find((p: { id: string }) => p.id === 'webdav');
      assert.ok(webdav, 'webdav is offered');
      assert.deepEqual(webdav.form_fields.map((f: { name: string }) => f.name).slice(0, 3), ['url', 'username', 'password']);
      assert.ok(webdav.scope_fields.some((f: { name: string }) => f.name === 'folder'));
    });

    test('wrong credentials and bad input answer problems, and leave no credential', async () => {
      const wrong = await anna.post(`${V1}/cloud/credentials`, { provider: 'webdav', inputs: { url: dav.url, username: 'anna', password: 'wrong' } });
      assert.equal(problem(anna, wrong).code, 'cloud_auth_failed');
      assert.equal(wrong.status, 422);
      const unknown = await anna.post(`${V1}/cloud/credentials`, { provider: 'nope', inputs: {} });
      assert.equal(problem(anna, unknown).code, 'unknown_provider');
      const ftp = await anna.post(`${V1}/cloud/credentials`, { provider: 'webdav', inputs: { url: 'ftp://127.0.0.1/', username: 'a', password: 'b' } });
      assert.equal(problem(anna, ftp).status, 422);
      const closed = await anna.post(`${V1}/cloud/credentials`, { provider: 'webdav', inputs: { url: 'http://127.0.0.1:9/dav/', username: 'a', password: 'b' } });
      assert.equal(problem(anna, closed).code, 'cloud_unreachable');
      assert.deepEqual(data(anna, await anna.get(`${V1}/cloud/credentials`)).credentials, []);
    });

    test('a self-signed certificate answers cloud_tls_untrusted with its fingerprint as a member of the problem', async () => {
      const certs = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-nas-cert-'));
      const cert = makeSelfSignedCert(certs, 'nas');
      const nas = await listen(https.createServer({ cert: fs.readFileSync(cert.cert), key: fs.readFileSync(cert.key) }, (_req, res) => res.end()));
      try {
        const url = `https://127.0.0.1:${nas.port}/dav/`;
        const refused = await anna.post(`${V1}/cloud/credentials`, { provider: 'webdav', inputs: { url, username: 'anna', password: PASS } });
        assert.equal(refused.status, 422);
        const p = problem(anna, refused);
        assert.equal(p.code, 'cloud_tls_untrusted');
        assert.equal(p.fingerprint, cert.fingerprint, 'the client reads the fingerprint to trust from the problem, not from its words');
        assert.equal(p.run_id, undefined);
      } finally {
        await nas.close();
        fs.rmSync(certs, { recursive: true, force: true });
      }
    });

    test('connecting stores the password sealed: it is in no answer and not readable in the catalog', async () => {
      const r = await anna.post(`${V1}/cloud/credentials`, { provider: 'webdav', display_name: 'Family NAS', inputs: { url: dav.url, username: 'anna', password: PASS } });
      assert.equal(r.status, 200, r.text);
      const a = data(anna, r);
      assert.equal(a.auth_status, 'connected');
      assert.equal(a.challenge, null);
      assert.equal(a.credential.status, 'connected');
      assert.equal(a.credential.display_name, 'Family NAS');
      assert.equal(a.credential.public_config.username, 'anna');
      credentialId = a.credential.id;
      assert.ok(!r.text.includes(PASS), 'the password is in no answer');
      const row = srv.container.db.prepare('SELECT * FROM cloud_credentials WHERE credential_id = ?').get(credentialId);
      assert.ok(!JSON.stringify(row).includes(PASS), 'the password is sealed at rest');
      // Connecting the same account again signs the same credential in again.
      const again = data(anna, await anna.post(`${V1}/cloud/credentials`, { provider: 'webdav', inputs: { url: dav.url, username: 'anna', password: PASS } }));
      assert.equal(again.credential.id, credentialId);
    });

    test('credentials are their owner’s: an administrator lists them, nobody else reaches them', async () => {
      assert.equal(data(anna, await anna.get(`${V1}/cloud/credentials`)).credentials.length, 1);
      assert.equal(data(ben, await ben.get(`${V1}/cloud/credentials`)).credentials.length, 0);
      const listed = data(admin, await admin.get(`${V1}/cloud/credentials`)).credentials;
      assert.deepEqual(listed.map((c: { id: string }) => c.id), [credentialId]);
      for (const c of [ben, admin]) {
        const r = await c.post(`${V1}/cloud/credentials/${credentialId}/disconnect`);
        assert.equal(problem(c, r).code, 'cloud_credential_not_found');
        assert.equal(r.status, 404);
      }
    });

    test('the folders of the account can be browsed to choose what to import', async () => {
      const top = data(anna, await anna.get(`${V1}/cloud/credentials/${credentialId}/folders`));
      assert.deepEqual(top.folders.map((f: { name: string }) => f.name), ['2019', 'copy', 'Phone']);
      const inner = data(anna, await anna.get(`${V1}/cloud/credentials/${credentialId}/folders?folder=${encodeURIComponent(top.folders[0].path)}`));
      assert.deepEqual(inner.folders.map((f: { name: string }) => f.name), ['Trip']);
    });

    test('an import brings every photo in once, for its member, and reports what it skipped and why', async () => {
      const r = await anna.post(`${V1}/repositories/${repositoryId}/cloud/sources`, { credential_id: credentialId, remote_scope: { folder: '' } });
      assert.equal(r.status, 200, r.text);
      const started = data(anna, r).run;
      assert.ok(['queued', 'running'].includes(started.status));
      firstRunId = started.id;
      const run = await finished(anna, firstRunId);
      assert.equal(run.status, 'completed', JSON.stringify(run));
      assert.equal(run.total_seen, 6);
      assert.equal(run.imported_count, 3);
      assert.equal(run.skipped_count, 3);
      assert.equal(run.failed_count, 0);
      assert.equal(run.downloaded_count, 5, 'the text file is not fetched');
      assert.match(run.summary, /3 files imported/);

      const report = data(anna, await anna.get(`${V1}/cloud/import-runs/${firstRunId}/files`));
      const reasons = Object.fromEntries(report.files.map((f: { name: string; folder: string; reason_code: string }) => [`${f.folder}/${f.name}`, f.reason_code]));
      assert.equal(reasons['/notes.txt'], 'not_media');
      assert.equal(reasons['/fake.jpg'], 'unsupported');
      assert.equal(Object.values(reasons).filter((c) => c === 'already_in_library').length, 1, 'one of the two copies is skipped as already there');

      const csv = await anna.get(`${V1}/cloud/import-runs/${firstRunId}/report.csv`);
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(csv.headers.get('content-disposition') ?? '', /attachment/);
      assert.match(csv.text, /notes\.txt,skipped,not_media/);

      // The photos are anna's, under their remote names, stored once.
      const assets = srv.container.db.prepare("SELECT owner_id, original_filename, storage_path FROM assets WHERE is_deleted = 0 AND storage_path LIKE 'imports/%'").all() as { owner_id: number; original_filename: string; storage_path: string }[];
      assert.equal(assets.length, 3);
      const annaId = data(anna, await anna.get(`${V1}/auth/me`)).user_id ?? data(anna, await anna.get(`${V1}/auth/me`)).user?.user_id;
      assert.ok(assets.every((a) => a.owner_id === annaId), 'owned by the member who imported');
      assert.deepEqual(assets.map((a) => a.original_filename).sort(), ['Canon_40D.jpg', 'IMG ü 1.jpg', 'Nikon_D70.jpg']);
      // Nothing is left in the run's staging.
      const staging = path.join(srv.container.repositories.primary()!.path, '.hearth', 'staging', 'imports');
      assert.deepEqual(fs.existsSync(staging) ? fs.readdirSync(staging) : [], []);
      // Nobody else reads the run or its report.
      for (const c of [ben, admin]) assert.equal((await c.get(`${V1}/cloud/import-runs/${firstRunId}/files`)).status, 404);
    });

    test('a second run fetches nothing and says so; a changed file comes in again; a file deleted remotely stays here', async () => {
      const second = await finished(anna, data(anna, await anna.post(`${V1}/repositories/${repositoryId}/cloud/import`, {})).run.id);
      assert.equal(second.status, 'completed');
      assert.equal(second.imported_count, 0);
      assert.equal(second.downloaded_count, 0, 'nothing is fetched again');
      assert.equal(second.unchanged_count, 5);
      assert.match(second.summary, /^Nothing new: 5 files were imported before\./);

      fs.copyFileSync(path.join(CORPUS, 'exif/Olympus_C8080WZ.jpg'), path.join(remote, 'Phone', 'IMG ü 1.jpg'));
      fs.rmSync(path.join(remote, '2019', 'Trip', 'Nikon_D70.jpg'));
      const third = await finished(anna, data(anna, await anna.post(`${V1}/repositories/${repositoryId}/cloud/import`, {})).run.id);
      assert.equal(third.status, 'completed');
      assert.equal(third.imported_count, 1, 'the changed file');
      assert.equal(third.downloaded_count, 1);
      const kept = srv.container.db.prepare("SELECT count(*) FROM assets WHERE is_deleted = 0 AND original_filename = 'Nikon_D70.jpg'").pluck().get();
      assert.equal(kept, 1, 'a file deleted at the source is not deleted here');
      const status = data(anna, await anna.get(`${V1}/repositories/${repositoryId}/cloud`));
      assert.equal(status.sources.length, 1);
      assert.equal(status.latest_run.id, third.id);
      assert.equal(status.credential.id, credentialId);
      assert.equal(data(ben, await ben.get(`${V1}/repositories/${repositoryId}/cloud`)).sources.length, 0);
      assert.equal(data(admin, await admin.get(`${V1}/repositories/${repositoryId}/cloud`)).sources.length, 1);
    });

    test('one active run per repository and source: two starts at once, one answers 409', async () => {
      const [a, b] = await Promise.all([anna.post(`${V1}/repositories/${repositoryId}/cloud/import`, {}), anna.post(`${V1}/repositories/${repositoryId}/cloud/import`, {})]);
      const statuses = [a.status, b.status].sort();
      assert.deepEqual(statuses, [200, 409], `${a.text} ${b.text}`);
      const refused = a.status === 409 ? a : b;
      const started = data(anna, a.status === 200 ? a : b).run.id;
      assert.equal(problem(anna, refused).code, 'import_run_active');
      assert.equal(problem(anna, refused).run_id, started, 'the refusal names the run going on, for the client to show');
      await finished(anna, started);
    });

    test('cancel and resume: a resumed run goes on where it stopped and imports each file once', async () => {
      fs.copyFileSync(path.join(CORPUS, 'exif/Sony_DSLR-A200.jpg'), path.join(remote, 'Phone', 'new-1.jpg'));
      fs.copyFileSync(path.join(CORPUS, 'exif/Ricoh_Caplio_RR330.jpg'), path.join(remote, 'Phone', 'new-2.jpg'));
      const run = data(anna, await anna.post(`${V1}/repositories/${repositoryId}/cloud/import`, {})).run;
      const cancelled = data(anna, await anna.post(`${V1}/cloud/import-runs/${run.id}/cancel`));
      assert.ok(['cancelled', 'completed'].includes(cancelled.status), cancelled.status);
      if (cancelled.status === 'cancelled') {
        assert.equal(problem(anna, await ben.post(`${V1}/cloud/import-runs/${run.id}/resume`)).status, 404, "another member cannot resume anna's run");
        const resumed = data(anna, await anna.post(`${V1}/cloud/import-runs/${run.id}/resume`)).run;
        assert.equal(resumed.id, run.id);
        const done = await finished(anna, run.id);
        assert.equal(done.status, 'completed');
      }
      const again = await anna.post(`${V1}/cloud/import-runs/${run.id}/resume`);
      assert.equal(problem(anna, again).code, 'import_run_not_resumable');
      const copies = srv.container.db.prepare("SELECT count(*) FROM assets WHERE original_filename IN ('new-1.jpg', 'new-2.jpg')").pluck().get();
      assert.equal(copies, 2, 'each new file once');
    });

    test('disconnect stops new imports; reconnect reuses the stored password; remove unbinds and keeps the photos', async () => {
      assert.equal(data(anna, await anna.post(`${V1}/cloud/credentials/${credentialId}/disconnect`)).message.length > 0, true);
      const refused = await anna.post(`${V1}/repositories/${repositoryId}/cloud/import`, {});
      assert.equal(problem(anna, refused).code, 'credential_not_connected');
      const back = data(anna, await anna.post(`${V1}/cloud/credentials/${credentialId}/reconnect`, {}));
      assert.equal(back.auth_status, 'connected');
      assert.equal(back.credential.status, 'connected');
      const before = srv.container.db.prepare("SELECT count(*) FROM assets WHERE storage_path LIKE 'imports/%'").pluck().get();
      assert.ok(data(anna, await anna.req('DELETE', `${V1}/cloud/credentials/${credentialId}`)).message);
      assert.deepEqual(data(anna, await anna.get(`${V1}/cloud/credentials`)).credentials, []);
      assert.equal(data(anna, await anna.get(`${V1}/repositories/${repositoryId}/cloud`)).sources.length, 0, 'unbound');
      assert.equal(srv.container.db.prepare("SELECT count(*) FROM assets WHERE storage_path LIKE 'imports/%'").pluck().get(), before, 'the photos stay');
      assert.equal(data(anna, await anna.get(`${V1}/cloud/import-runs/${firstRunId}`)).id, firstRunId, 'the runs stay readable');
    });

    test('the retired cloud sync always answers a problem', async () => {
      const r = await anna.post(`${V1}/cloud/sync`, {});
      assert.equal(r.status, 410);
      assert.equal(problem(anna, r).code, 'sync_deprecated');
    });
  });
}

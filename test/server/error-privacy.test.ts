/**
 * Errors speak of assets by id to anyone but their owner: job errors (listJobs, getJob, queue
 * summaries) that administrators read, and repository scans that every member reads. A file's path
 * is named to its owner only; places of a repository (unreadable folders, files not catalogued) to
 * administrators only; absolute server paths to no one.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type Client, type TestServer } from './helpers/server.ts';
import { V1, data, signedInHousehold } from './helpers/api.ts';
import { corpusFile, waitFor } from './repositories/helpers.ts';
import { uploadFile } from './uploads/helpers.ts';
import { MediaDecodeError } from '../../server/src/adapters/media/errors.ts';

const SECRET = 'bobs-secret-diary';
const HOLIDAY = 'bobs-holiday-in-rome';
/** The administrator's own photo, refused by the decoder like Bob's. */
const OWN = 'admins-own-broken-scan';

for (const variant of ['A', 'B'] as const) {
  describe(`errors name assets by id, variant ${variant}`, () => {
    let srv: TestServer;
    let admin: Client;
    let bob: Client;
    let carol: Client;
    let tmp: string;
    let brokenId: string;
    let holidayId: string;
    let holidayPath: string;

    before(async () => {
      srv = await startServer();
      const h = await signedInHousehold(srv.url, variant, ['bob', 'carol']);
      ({ admin } = h);
      bob = h.members.bob.client;
      carol = h.members.carol.client;
      tmp = fs.mkdtempSync(path.join(srv.dataDir, 'src-'));
      // A photo the decoder refuses, with the words decoders use: "cannot decode <its path>: …"
      // (damaged files have a fixed sentence that names nothing; this is the other kind of failure).
      const broken = path.join(tmp, `${SECRET}.jpg`);
      fs.copyFileSync(corpusFile('exif/Nikon_D70.jpg'), broken);
      const pipeline = srv.container.pipeline as unknown as { photo: (asset: { asset_id: string }, file: string, ...rest: unknown[]) => Promise<unknown> };
      const photo = pipeline.photo.bind(pipeline);
      pipeline.photo = async (asset, file, ...rest) => {
        if (file.includes(SECRET) || file.includes(OWN)) throw new MediaDecodeError(file, 'unsupported colour profile');
        return photo(asset, file, ...rest);
      };
      const up = await uploadFile(srv, bob.token!, broken);
      assert.ok(up.status === 200 || up.status === 201, up.text);
      brokenId = (up.body as { asset_id: string }).asset_id;
      const good = path.join(tmp, `${HOLIDAY}.jpg`);
      fs.copyFileSync(corpusFile('exif/Canon_40D.jpg'), good);
      const up2 = await uploadFile(srv, bob.token!, good);
      assert.ok(up2.status === 200 || up2.status === 201, up2.text);
      holidayId = (up2.body as { asset_id: string }).asset_id;
      holidayPath = (srv.container.db.prepare('SELECT storage_path FROM assets WHERE asset_id = ?').get(holidayId) as { storage_path: string }).storage_path;
    });
    after(() => srv.stop({ removeData: true }));

    test('job errors, job lists and queue summaries name the asset by id, not its file', async () => {
      const failed = await waitFor('the broken upload to fail', () => {
        const row = srv.container.db.prepare("SELECT state FROM assets WHERE asset_id = ?").get(brokenId) as { state: string };
        return row.state === 'failed' ? row : null;
      });
      assert.ok(failed);
      const list = data(admin, await admin.get(`${V1}/jobs?kind=assets.process-asset&limit=100`));
      const job = list.jobs.find((j: { args: { asset_id: string } }) => j.args.asset_id === brokenId);
      assert.ok(job, 'the failed job is listed');
      assert.ok(job.last_error, 'it has an error');
      const one = data(admin, await admin.get(`${V1}/jobs/${job.id}`));
      const summaries = data(admin, await admin.get(`${V1}/queues/summaries?error_limit=20`));
      for (const [what, value] of [['listJobs', job], ['getJob', one], ['getQueueSummaries', summaries]] as const) {
        const text = JSON.stringify(value);
        assert.ok(!text.includes(SECRET), `${what} names the member's file: ${text}`);
        assert.ok(!text.includes('uploads/'), `${what} names a path: ${text}`);
        assert.ok(!text.includes(srv.dataDir), `${what} names a server path: ${text}`);
      }
      assert.match(one.last_error, new RegExp(`asset ${brokenId}`));
      assert.ok(one.errors.every((e: { error: string }) => !e.error.includes(SECRET)));
      assert.equal(job.asset_name, null, "another member's file is not named to the administrator");
      assert.equal(one.asset_name, null);
    });

    test("the administrator's own photo is named by its file name on the Jobs page (listJobs, getJob, summaries)", async () => {
      const file = path.join(tmp, `${OWN}.jpg`);
      fs.copyFileSync(corpusFile('exif/Nikon_D70.jpg'), file);
      const up = await uploadFile(srv, admin.token!, file);
      assert.ok(up.status === 200 || up.status === 201, up.text);
      const ownId = (up.body as { asset_id: string }).asset_id;
      await waitFor('the administrator\'s broken upload to fail', () => {
        const row = srv.container.db.prepare('SELECT state FROM assets WHERE asset_id = ?').get(ownId) as { state: string };
        return row.state === 'failed' ? row : null;
      });
      const list = data(admin, await admin.get(`${V1}/jobs?kind=assets.process-asset&limit=100`));
      const job = list.jobs.find((j: { args: { asset_id: string } }) => j.args.asset_id === ownId);
      assert.ok(job, 'the failed job is listed');
      assert.equal(job.asset_name, `${OWN}.jpg`, 'listJobs names the administrator\'s own photo');
      assert.ok(job.last_error.includes(`${OWN}.jpg`) && !job.last_error.includes(`asset ${ownId}`), `the error speaks of it by name: ${job.last_error}`);
      const one = data(admin, await admin.get(`${V1}/jobs/${job.id}`));
      assert.equal(one.asset_name, `${OWN}.jpg`);
      assert.ok(one.errors.every((e: { error: string }) => !e.error.includes(`asset ${ownId}`)));
      const summaries = JSON.stringify(data(admin, await admin.get(`${V1}/queues/summaries?error_limit=20`)));
      assert.ok(summaries.includes(`${OWN}.jpg`), 'the queue summary\'s error names it too');
      assert.ok(!summaries.includes(SECRET), 'and still not Bob\'s');
      assert.ok(!JSON.stringify(one).includes(srv.dataDir), 'never a server path');
    });

    test('scan errors name a file to its owner only, places of the repository to administrators only', async () => {
      const container = srv.container;
      const primary = container.repositories.primary()!;
      const root = primary.path;
      fs.mkdirSync(path.join(root, 'locked'), { recursive: true });
      fs.mkdirSync(path.join(root, 'family'), { recursive: true });
      fs.copyFileSync(corpusFile('exif/Nikon_D70.jpg'), path.join(root, 'family', 'new-arrival.jpg'));
      // Faults a real disk gives: a folder that cannot be listed, two files that cannot be read.
      container.repositories.walkFs = {
        readDir: async (abs: string) => {
          if (abs === path.join(root, 'locked')) throw Object.assign(new Error(`EACCES: permission denied, scandir '${abs}'`), { code: 'EACCES' });
          return fs.promises.readdir(abs, { withFileTypes: true });
        },
      };
      // Scans hand files to the one door into the catalog (features/intake/door.ts).
      const door = container.door;
      const admit = door.admit.bind(door);
      const unreadable = new Set([holidayPath, 'family/new-arrival.jpg']);
      door.admit = (a) => {
        const relPath = a.file.kind === 'in-place' ? a.file.relPath : '';
        if (unreadable.has(relPath)) throw new Error(`EIO: i/o error, read '${path.join(root, relPath)}'`);
        return admit(a);
      };
      try {
        const r = await admin.post(`${V1}/repositories/${primary.repository_id}/scans`, { force: true });
        assert.ok(r.status === 202 || r.status === 200, r.text);
        const scanId = data(admin, r).scan.scan_id;
        await waitFor('the forced scan', async () => {
          const s = data(admin, await admin.get(`${V1}/repositories/${primary.repository_id}/scans/latest`)).scan;
          return s.scan_id === scanId && !['queued', 'running'].includes(s.status) ? s : null;
        });
      } finally {
        container.repositories.walkFs = undefined;
        door.admit = admit;
      }
      const read = async (c: Client) => {
        const latest = data(c, await c.get(`${V1}/repositories/${primary.repository_id}/scans/latest`)).scan;
        const listed = data(c, await c.get(`${V1}/repositories/${primary.repository_id}/scans`)).scans[0];
        assert.equal(listed.error, latest.error, 'the list and the latest scan say the same');
        assert.equal(latest.failed, 2);
        assert.ok(!latest.error.includes(root), `no server path: ${latest.error}`);
        return latest.error as string;
      };
      const forAdmin = await read(admin);
      assert.ok(!forAdmin.includes(HOLIDAY), `the administrator does not read the member's file name: ${forAdmin}`);
      assert.match(forAdmin, new RegExp(`asset ${holidayId}`));
      assert.match(forAdmin, /'locked' \(/, 'the administrator reads the unreadable place');
      assert.match(forAdmin, /'family\/new-arrival\.jpg'/, 'and the file not catalogued yet');

      const forOwner = await read(bob);
      assert.ok(forOwner.includes(`'${holidayPath}'`), `the owner reads the path of their file: ${forOwner}`);
      assert.ok(!forOwner.includes('locked') && !forOwner.includes('new-arrival'), `no repository places for members: ${forOwner}`);
      assert.match(forOwner, /2 file\(s\) could not be indexed/);

      const forOther = await read(carol);
      assert.ok(!forOther.includes(HOLIDAY), `another member does not read it: ${forOther}`);
      assert.match(forOther, new RegExp(`asset ${holidayId}`));
      assert.ok(!forOther.includes('locked') && !forOther.includes('new-arrival'), forOther);
      assert.match(forOther, /1 place\(s\) could not be read/);
    });
  });
}

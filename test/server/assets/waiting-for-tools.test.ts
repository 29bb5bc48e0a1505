/**
 * Videos and sound files on a machine without ffprobe/ffmpeg are not lost: they wait (state `pending`,
 * status 930, `last_error` naming the tool and how to install it) with the metadata their MP4/MOV boxes hold,
 * the admin pages' report says so, and once the tools are there they are processed to `ready` by themselves:
 * at the next start, or when an administrator asks (recheckMediaTools).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { CORPUS } from '../media/corpus.ts';
import { V1, data } from '../helpers/api.ts';
import { addFile, household, inVariant, silentWav } from './fixture.ts';
import { makeClip, scratchDir, withXmpBox } from './made-media.ts';
import { multipartBuffer, MULTIPART_TYPE } from '../uploads/helpers.ts';

const MISSING = { FFPROBE_PATH: '/nonexistent/hearth-test/ffprobe', FFMPEG_PATH: '/nonexistent/hearth-test/ffmpeg' };
const KEYS = ['-movflags', 'use_metadata_tags'];

/** name → how it is made, and what its boxes say: [width, height, duration, taken_time, offset, latitude, longitude] */
type Expected = [number, number, number, string | typeof MODIFIED, number | null, number | null, number | null];

/** The boxes give no date: the asset takes its file's modification time, marked as such (fact-precedence.ts). */
const MODIFIED = Symbol('the file modification time');

/** [width, height, duration?, taken_time, offset] of an asset as the test compares them; MODIFIED by its source. */
function capture(a: { taken_time: string | null; capture_offset_minutes: number | null; time_source: string | null }, taken: Expected[3]) {
  if (taken !== MODIFIED) return [a.taken_time, a.capture_offset_minutes];
  assert.equal(a.time_source, 'file_modified');
  assert.ok(a.taken_time !== null, 'dated by its modification time');
  return [MODIFIED, null];
}

/** The tools are "installed": the variables no longer point at missing programs (ffmpeg is on the PATH). */
function installTools(): void {
  for (const k of Object.keys(MISSING)) delete process.env[k];
}

/** A client of `signedIn`'s account on a restarted server (a new port). */
function sameAccount(signedIn: Client, url: string): Client {
  const c = new Client(url);
  c.token = signedIn.token;
  return c;
}

describe('files wait for ffprobe/ffmpeg instead of failing, and are processed once the tools are there', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let other: Client;
  let ownerId: number;
  const tmp = scratchDir();
  const ids: Record<string, string> = {};
  const expected: Record<string, Expected> = {};

  before(async () => {
    const clip = (name: string, args: string[], size = '320x240') => makeClip(path.join(tmp, name), { seconds: 1, audio: false, size, args });
    const files: Record<string, Buffer> = {
      // MP4: ©xyz place, UTC creation_time, and an XMP uuid box whose zoned DateTimeOriginal is the capture time.
      'xmp.mp4': withXmpBox(clip('xmp.mp4', ['-metadata', 'creation_time=2020-11-20T14:04:36Z', '-metadata', 'location=+48.8584+002.2945/']), '2020-11-20T15:04:02+01:00'),
      // MOV with QuickTime keys: creationdate with its zone, ISO 6709 place, camera.
      'keys.mov': clip('keys.mov', [
        ...KEYS,
        '-metadata', 'creation_time=2024-05-01T08:00:34Z',
        '-metadata', 'com.apple.quicktime.creationdate=2024-05-01T10:00:00+0200',
        '-metadata', 'com.apple.quicktime.location.ISO6709=+52.3731+004.8922/',
        '-metadata', 'com.apple.quicktime.make=Apple',
      ], '240x160'),
      'zero-date.mp4': clip('zero-date.mp4', []), // creation_time 0 (1904): no date
      'phone.mov': fs.readFileSync(path.join(CORPUS, 'video/with-gps.mov')), // iPhone: keys, rotated 90°
    };
    expected['xmp.mp4'] = [320, 240, 1, '2020-11-20T14:04:02.000Z', 60, 48.8584, 2.2945];
    expected['keys.mov'] = [240, 160, 1, '2024-05-01T08:00:00.000Z', 120, 52.3731, 4.8922];
    expected['zero-date.mp4'] = [320, 240, 1, MODIFIED, null, null, null];
    expected['phone.mov'] = [320, 568, 4, '2019-07-24T08:25:40.000Z', 180, 32.0929, 34.862];
    Object.assign(process.env, MISSING);
    const h = await household();
    ({ srv, owner, other, ownerId } = h);
    for (const [name, bytes] of Object.entries(files)) ids[name] = await addFile(srv, `videos/${name}`, ownerId, bytes);
    ids['sound.wav'] = await addFile(srv, 'sound/sound.wav', ownerId, silentWav());
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    installTools();
    await srv.stop({ removeData: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('without ffprobe: waiting, not failed, with what the boxes say (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(owner, variant);
      for (const [name, [w, h, duration, taken, offset, lat, lon]] of Object.entries(expected)) {
        const a = data(client, await client.get(`${V1}/assets/${ids[name]}`));
        assert.equal(a.state, 'pending', `${name}: ${a.state} ${a.last_error}`);
        assert.deepEqual(a.status, [10, 20, 31, 930], name);
        assert.match(a.last_error, /^Waiting for ffprobe, which is not installed.*apt install ffmpeg.*FFPROBE_PATH/, name);
        assert.deepEqual([a.width, a.height, Math.round(a.duration), ...capture(a, taken)], [w, h, duration, taken, offset], name);
        if (lat === null) assert.equal(a.gps_latitude, null, name);
        else assert.ok(Math.abs(a.gps_latitude - lat) < 1e-4 && Math.abs(a.gps_longitude - lon!) < 1e-4, `${name}: ${a.gps_latitude},${a.gps_longitude}`);
        assert.equal(a.specific_metadata.container_boxes_only, true, name);
        assert.ok(a.media_item_id, `${name}: in the library's timeline`);
      }
      const sound = data(client, await client.get(`${V1}/assets/${ids['sound.wav']}`));
      assert.deepEqual([sound.state, sound.status], ['pending', [10, 930]]);
    }
    // A tile stands in for the poster: the thumbnail answers.
    const thumb = await owner.get(`${V1}/assets/${ids['xmp.mp4']}/thumbnail?size=small`);
    assert.equal(thumb.status, 200, thumb.text);
    // Not a failure: the job completed and is not retried.
    const jobs = srv.container.db.prepare("SELECT state, attempt FROM jobs WHERE kind = 'assets.process-asset' AND json_extract(args, '$.asset_id') = ?").all(ids['keys.mov']);
    assert.deepEqual(jobs, [{ state: 'completed', attempt: 1 }]);
  });

  test('the report says what is missing and how many files wait (both variants, diagnostics too); members may not see it', async () => {
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(owner, variant);
      const r = data(client, await client.get(`${V1}/media-tools`));
      assert.equal(r.reason, 'tool_missing');
      assert.equal(r.waiting_assets, 5);
      assert.deepEqual(r.tools.map((t: { tool: string; found: boolean }) => [t.tool, t.found]), [['ffprobe', false], ['ffmpeg', false]]);
      assert.match(r.install_hint, /apt install ffmpeg/);
      const d = data(client, await client.get(`${V1}/runtime/diagnostics`));
      assert.deepEqual([d.media_tools.reason, d.media_tools.waiting_assets], ['tool_missing', 5]);
      // Asked again while the tools are still missing: nothing is queued.
      const again = data(client, await client.post(`${V1}/media-tools/recheck`, {}));
      assert.deepEqual([again.reason, again.requeued, again.waiting_assets], ['tool_missing', 0, 5]);
    }
    assert.equal((await other.get(`${V1}/media-tools`)).status, 403);
    assert.equal((await other.post(`${V1}/media-tools/recheck`, {})).status, 403);
  });

  test('a start that still finds no tools leaves them waiting; the administrator’s recheck processes them once installed', async () => {
    await srv.stop();
    srv = await startServer({ dataDir: srv.dataDir });
    await srv.container.jobRunner.whenIdle();
    const waiting = srv.container.db.prepare("SELECT count(*) FROM assets WHERE state = 'pending'").pluck().get();
    assert.equal(waiting, 5, 'not queued again while the tools are missing');
    installTools();
    const admin = sameAccount(owner, srv.url);
    const r = data(admin, await admin.post(`${V1}/media-tools/recheck`, {}));
    assert.deepEqual([r.reason, r.requeued], [null, 5]);
    await srv.container.jobRunner.whenIdle();
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(admin, variant);
      for (const [name, [w, h, , taken, offset]] of Object.entries(expected)) {
        const a = data(client, await client.get(`${V1}/assets/${ids[name]}`));
        assert.equal(a.state, 'ready', `${name}: ${a.last_error}`);
        assert.equal(a.last_error, null);
        assert.ok(!a.status.includes(930) && a.status.includes(60), `${name}: ${JSON.stringify(a.status)}`);
        // ffprobe's reading agrees, and the zoned XMP time still wins over the container's UTC time.
        assert.deepEqual([a.width, a.height, ...capture(a, taken)], [w, h, taken, offset], name);
        assert.equal(a.specific_metadata.container_boxes_only, undefined, name);
      }
      assert.equal(data(client, await client.get(`${V1}/assets/${ids['sound.wav']}`)).state, 'ready');
    }
  });

  test('an upload without the tools completes its receipt (the file is safe) saying tool_missing; processed at the next start once the tool is there', async () => {
    Object.assign(process.env, MISSING);
    const member = sameAccount(owner, srv.url);
    const body = await multipartBuffer([{ name: 'file', filename: 'later.mp4', data: makeClip(path.join(tmp, 'later.mp4'), { seconds: 1, audio: false }) }]);
    const up = await member.req('POST', `${V1}/uploads/files`, { body, headers: { 'content-type': MULTIPART_TYPE } });
    assert.equal(up.status, 200, up.text);
    const receiptId = data(member, up).receipt_id as string;
    await srv.container.jobRunner.whenIdle();
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(member, variant);
      const r = data(client, await client.get(`${V1}/uploads/receipts?receipt_ids=${receiptId}`));
      const receipt = r.operations[0];
      assert.deepEqual([receipt.status, receipt.success, receipt.terminal, receipt.problem?.code, receipt.problem?.retryable], ['completed', true, true, 'tool_missing', true], JSON.stringify(receipt));
    }
    const id = srv.container.db.prepare('SELECT asset_id FROM upload_receipts WHERE receipt_id = ?').pluck().get(receiptId) as string;
    assert.equal(srv.container.db.prepare('SELECT state FROM assets WHERE asset_id = ?').pluck().get(id), 'pending');
    await srv.stop();
    installTools();
    srv = await startServer({ dataDir: srv.dataDir });
    await srv.container.jobRunner.whenIdle();
    const a = srv.container.db.prepare('SELECT state, status FROM assets WHERE asset_id = ?').get(id) as { state: string; status: string };
    assert.equal(a.state, 'ready');
    assert.ok(JSON.parse(a.status).includes(30), a.status);
  });
});

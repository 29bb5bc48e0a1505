/**
 * Damaged input of every kind (JPEG, PNG, HEIC, MP4, MOV, RAW), cut short the way an interrupted copy or
 * upload leaves it, ends `failed` with status 900 on its first attempt, with the same fixed sentence every
 * time; a failure of the tool itself is still retried and ends 920.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client, TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { addFile, household, inVariant } from './fixture.ts';
import { cutShort, makeClip, noisePng, scratchDir } from './made-media.ts';

const corpus = (rel: string) => fs.readFileSync(path.join(CORPUS, rel));

describe('damaged input is corrupt at once, with a stable reason', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let ownerId: number;
  const tmp = scratchDir();
  /** name → [bytes, the sentence expected in last_error] */
  const cases: Record<string, [Buffer, string]> = {};
  const ids: Record<string, string[]> = {};

  before(async () => {
    const h = await household();
    ({ srv, owner, ownerId } = h);
    const reason = (label: string) => `The ${label} file is damaged or cut short; it cannot be decoded.`;
    const mp4 = makeClip(path.join(tmp, 'clip.mp4')); // index (moov) at the end: cut, it has none
    const faststart = makeClip(path.join(tmp, 'fast.mp4'), { args: ['-movflags', '+faststart'] }); // index first: cut, its data runs short
    cases['photo.jpg'] = [cutShort(corpus('exif/jolla.jpg')), reason('JPEG')];
    cases['noise.png'] = [cutShort(await noisePng()), reason('PNG')];
    cases['phone.heic'] = [cutShort(corpus('heic/IMG_1034.heic')), reason('HEIC')];
    cases['clip.mp4'] = [cutShort(mp4), reason('MP4')];
    cases['fast.mp4'] = [cutShort(faststart), reason('MP4')];
    cases['phone.mov'] = [cutShort(corpus('video/with-gps.mov')), reason('MOV')];
    // The TIFF header and nothing else: no preview, no metadata (a RAW that keeps its metadata is not corrupt:
    // raw-without-preview.test.ts).
    cases['camera.nef'] = [
      cutShort(corpus('raw/RAW_NIKON_D1.NEF'), 16 / 4055474),
      'Neither the preview nor the metadata of this NEF file can be read: it is damaged or cut short, or a kind of RAW Hearth does not read.',
    ];
    // Each damaged file twice: the reason must not change from one file (or run) to the next.
    for (const [name, [bytes]] of Object.entries(cases)) {
      ids[name] = [await addFile(srv, `damaged/a-${name}`, ownerId, bytes), await addFile(srv, `damaged/b-${name}`, ownerId, bytes)];
    }
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv.stop({ removeData: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('every damaged file fails with 900 and its format’s fixed sentence, in both variants', async () => {
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(owner, variant);
      for (const [name, [, expected]] of Object.entries(cases)) {
        for (const id of ids[name]!) {
          const r = await client.get(`${V1}/assets/${id}`);
          assert.equal(r.status, 200, r.text);
          const a = data(client, r);
          assert.equal(a.state, 'failed', `${name}: ${a.state} ${a.last_error}`);
          assert.deepEqual(a.status, [10, 900], `${name}: ${JSON.stringify(a.status)} ${a.last_error}`);
          assert.equal(a.last_error, expected, name);
        }
      }
    }
  });

  test('no damaged file was tried twice', () => {
    for (const [name, list] of Object.entries(ids)) {
      for (const id of list) {
        const jobs = srv.container.db
          .prepare("SELECT attempt, state FROM jobs WHERE kind = 'assets.process-asset' AND json_extract(args, '$.asset_id') = ?")
          .all(id) as { attempt: number; state: string }[];
        assert.deepEqual(jobs, [{ attempt: 1, state: 'discarded' }], name);
      }
    }
  });

  test('a complete movie followed by a maker’s trailer is not damaged', async () => {
    // Samsung phones append a trailer (ending in "SEFT") after the movie; its first bytes can read like a box.
    const trailer = Buffer.concat([Buffer.from([0x00, 0x10, 0x00, 0x00]), Buffer.from('SEFH', 'latin1'), Buffer.alloc(100, 7), Buffer.from('SEFT', 'latin1')]);
    const id = await addFile(srv, 'sound/trailer.mp4', ownerId, Buffer.concat([makeClip(path.join(tmp, 'trailer.mp4'), { seconds: 1 }), trailer]));
    await srv.container.jobRunner.whenIdle();
    const a = srv.container.db.prepare('SELECT state, last_error FROM assets WHERE asset_id = ?').get(id) as { state: string; last_error: string | null };
    assert.deepEqual(a, { state: 'ready', last_error: null });
  });

  test('a tool that fails on a sound file is retried, then ends 920 (tool failed)', async () => {
    const saved = process.env.FFPROBE_PATH;
    process.env.FFPROBE_PATH = '/bin/false'; // a "probe" that exits 1 and says nothing: not the file's fault
    try {
      const id = await addFile(srv, 'sound/clip.mp4', ownerId, makeClip(path.join(tmp, 'sound.mp4'), { seconds: 1 }));
      const jobOf = () =>
        srv.container.db
          .prepare("SELECT id, state, attempt, max_attempts FROM jobs WHERE kind = 'assets.process-asset' AND json_extract(args, '$.asset_id') = ?")
          .get(id) as { id: number; state: string; attempt: number; max_attempts: number };
      // Each retry is run at once instead of after its backoff.
      for (let i = 0; i < 10; i++) {
        await srv.container.jobRunner.whenIdle();
        if (jobOf().state !== 'retryable') break;
        srv.container.jobs.retryNow(jobOf().id);
      }
      const a = srv.container.db.prepare('SELECT state, status FROM assets WHERE asset_id = ?').get(id) as { state: string; status: string };
      assert.equal(a.state, 'failed');
      assert.deepEqual(JSON.parse(a.status), [10, 920]);
      const job = jobOf();
      assert.equal(job.attempt, job.max_attempts, 'retried up to its last attempt');
      assert.ok(job.max_attempts > 1);
    } finally {
      if (saved === undefined) delete process.env.FFPROBE_PATH;
      else process.env.FFPROBE_PATH = saved;
    }
  });
});

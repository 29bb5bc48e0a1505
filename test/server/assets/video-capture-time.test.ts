/**
 * A video whose container states the local capture time with its zone (MP4/QuickTime ©day `date`, or
 * QuickTime's `com.apple.quicktime.creationdate`) is dated by that tag, offset included, not by the
 * container's UTC creation_time (written 34 s later here, as cameras do at the end of a recording).
 * The clips are made by ffmpeg at run time, in the zone forms writers use.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client, TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { addFile, household, inVariant } from './fixture.ts';
import { makeClip, scratchDir } from './made-media.ts';

const CONTAINER_UTC = '2024-05-01T08:00:34Z';
const KEYS = ['-movflags', 'use_metadata_tags'];

/** name → [ffmpeg metadata options, expected taken_time, expected offset] */
const CLIPS: Record<string, [string[], string, number | null]> = {
  'date-hhmm.mp4': [['-metadata', 'date=2024-05-01T10:00:00+0200'], '2024-05-01T08:00:00.000Z', 120],
  'date-hours-only.mp4': [['-metadata', 'date=2024-05-01T10:00:00+02'], '2024-05-01T08:00:00.000Z', 120],
  'date-gmt.mov': [['-metadata', 'date=2024-05-01T10:00:00 GMT+02:00'], '2024-05-01T08:00:00.000Z', 120],
  'date-exif-style.mov': [['-metadata', 'date=2024:05:01 03:00:00-07:00'], '2024-05-01T10:00:00.000Z', -420],
  'keys-creationdate.mov': [[...KEYS, '-metadata', 'com.apple.quicktime.creationdate=2024-05-01T10:00:00+0200'], '2024-05-01T08:00:00.000Z', 120],
  'keys-hours-only.mp4': [[...KEYS, '-metadata', 'com.apple.quicktime.creationdate=2024-05-01T15:30:00+05'], '2024-05-01T10:30:00.000Z', 300],
  'keys-over-date.mov': [
    [...KEYS, '-metadata', 'com.apple.quicktime.creationdate=2024-05-01T10:00:00-03:00', '-metadata', 'date=2024-05-01T15:00:00+02:00'],
    '2024-05-01T13:00:00.000Z',
    -180,
  ],
  // No zoned tag: the container's time is a true instant whose zone is unknown.
  'container-only.mp4': [[], '2024-05-01T08:00:34.000Z', null],
  // A zone-less local date is not evidence of a zone: the container's instant stays.
  'date-without-zone.mp4': [['-metadata', 'date=2024-05-01T10:00:00'], '2024-05-01T08:00:34.000Z', null],
};

describe('video capture time prefers the zoned local tag', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  const tmp = scratchDir();
  const ids: Record<string, string> = {};

  before(async () => {
    const h = await household();
    ({ srv, owner } = h);
    for (const [name, [args]] of Object.entries(CLIPS)) {
      const bytes = makeClip(path.join(tmp, name), { seconds: 1, audio: false, args: ['-metadata', `creation_time=${CONTAINER_UTC}`, ...args] });
      ids[name] = await addFile(srv, `videos/${name}`, h.ownerId, bytes);
    }
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv.stop({ removeData: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('taken_time and capture_offset_minutes come from the zoned tag (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(owner, variant);
      for (const [name, [, taken, offset]] of Object.entries(CLIPS)) {
        const a = data(client, await client.get(`${V1}/assets/${ids[name]}`));
        assert.equal(a.state, 'ready', `${name}: ${a.last_error}`);
        assert.deepEqual([a.taken_time, a.capture_offset_minutes], [taken, offset], name);
      }
    }
  });
});

/**
 * AVCHD clips (.mts) keep their capture time in the H.264 stream's MDPM block, not where ffprobe looks:
 * the corpus' Sony A7 III clip (taken 2019-04-24 22:24:00 +02:00) had no capture time and was filed
 * under the day it was uploaded. Through the real pipeline (ffprobe, ffmpeg), both variants; and the
 * zone byte's forms on blocks made here.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client, TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { addFile, household, inVariant } from './fixture.ts';
import { avchdTimeFrom } from '../../../server/src/adapters/media/avchd-date.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../../../shared/corpus/video/Sony_ILCE-7M3.mts');

/** An MDPM block with tags 0x18/0x19 (BCD); the corpus clip covers the NAL escaping ("00 00 03"). */
function block(zone: number, date: string): Buffer {
  const [y, mo, d, h, mi, s] = date.split(/[-T:]/).map((v) => parseInt(v, 16));
  const raw = [0x02, 0x18, zone, y! >> 8, y! & 0xff, mo!, 0x19, d!, h!, mi!, s!];
  return Buffer.concat([Buffer.from('xxxxMDPM', 'latin1'), Buffer.from(raw), Buffer.from('tail')]);
}

describe('AVCHD capture time', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let id = '';

  before(async () => {
    const h = await household();
    ({ srv, owner } = h);
    id = await addFile(srv, 'videos/Sony_ILCE-7M3.mts', h.ownerId, fs.readFileSync(CORPUS));
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv.stop({ removeData: true });
  });

  test('the Sony clip gets its capture time and zone from the MDPM block (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(owner, variant);
      const a = data(client, await client.get(`${V1}/assets/${id}`));
      assert.equal(a.state, 'ready', String(a.last_error));
      assert.deepEqual([a.taken_time, a.capture_offset_minutes], ['2019-04-24T20:24:00.000Z', 120]);
    }
  });

  test('zone byte: east, west with half hours, and not recorded (camera clock)', () => {
    assert.deepEqual(avchdTimeFrom(block(0x44, '2019-04-24T22:24:00')), { iso: '2019-04-24T20:24:00.000Z', offsetMinutes: 120 });
    assert.deepEqual(avchdTimeFrom(block(0x20 | (9 << 1) | 1, '2021-01-02T03:04:05')), { iso: '2021-01-02T12:34:05.000Z', offsetMinutes: -570 });
    assert.deepEqual(avchdTimeFrom(block(0xff, '2010-12-31T23:59:58')), { iso: '2010-12-31T23:59:58.000Z', offsetMinutes: null });
    // No date tags, or an impossible date: nothing, rather than a wrong day.
    assert.equal(avchdTimeFrom(Buffer.from('no block here')), null);
    assert.equal(avchdTimeFrom(block(0x44, '2019-13-40T22:24:00')), null);
  });
});

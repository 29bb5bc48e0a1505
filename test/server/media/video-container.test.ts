/**
 * A movie's own metadata from its MP4/MOV/3GP boxes, without ffprobe (bmff-movie.ts, movie-metadata.ts):
 * every ISO-BMFF movie of the corpus against its ground truth; the XMP packet's zoned time; zero and
 * impossible dates; and damaged, cut-short or scrambled boxes never throw or hang.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { bufferSource } from '../../../server/src/adapters/media/byte-source.ts';
import { readMovieBoxes } from '../../../server/src/adapters/media/bmff-movie.ts';
import { probeVideo, readVideoContainer } from '../../../server/src/adapters/media/video.ts';
import { makeClip, withXmpBox } from '../assets/made-media.ts';
import { corpusPath, labels, labelOffset, labelWallClock, tempDir, wallClockOf } from './corpus.ts';

const ROTATED: Record<string, number> = { 'video/with-gps.mov': 90, 'video/ftyp3gp5.mp4': 90 };

describe('movie metadata from the boxes alone, against the corpus ground truth', () => {
  const movies = Object.keys(labels('video'))
    .filter((f) => /\.(mov|mp4|3gp)$/i.test(f))
    .map((f) => `video/${f}`);
  for (const key of [...movies, 'live/IMG_7943_HEVC.MOV']) {
    test(key, async () => {
      const [folder, file] = key.split('/') as [string, string];
      const e = labels(folder)[file]!.expected_metadata;
      const v = await readVideoContainer(corpusPath(folder, file));
      assert.ok(v, 'an ISO-BMFF movie');
      assert.ok(Math.abs(v.duration! - e.duration_s!) <= Math.max(0.02, e.duration_s! * 0.01), `duration ${v.duration} vs ${e.duration_s}`);
      const rotation = ROTATED[key] ?? 0;
      assert.equal(v.rotation, rotation, 'rotation');
      assert.deepEqual([v.width, v.height], rotation === 90 ? [e.height, e.width] : [e.width, e.height], 'displayed size');
      if (e.quicktime_creation_date) {
        assert.equal(v.creation_time_kind, 'zoned');
        assert.equal(v.capture_offset_minutes, labelOffset(e.quicktime_creation_date));
        assert.equal(wallClockOf(v.creation_time!, v.capture_offset_minutes), labelWallClock(e.quicktime_creation_date));
      } else if (e.create_date && !e.create_date.startsWith('zero')) {
        assert.equal(v.creation_time, `${labelWallClock(e.create_date)}.000Z`);
        assert.equal(v.creation_time_kind, 'utc');
      } else assert.equal(v.creation_time, null, 'zero date is no date');
      if (e.gps && !(e.gps.lat === 0 && e.gps.lon === 0)) {
        assert.ok(v.gps && Math.abs(v.gps.latitude - e.gps.lat) < 1e-4 && Math.abs(v.gps.longitude - e.gps.lon) < 1e-4, `gps ${JSON.stringify(v.gps)}`);
      } else assert.equal(v.gps, null, 'no location (including a 0,0 fix)');
      assert.equal(v.make, e.make ?? null, 'make');
      assert.equal(v.model, e.model ?? null, 'model');
      assert.equal(v.content_identifier, e.content_identifier ?? null, 'content identifier');
    });
  }

  test('not a movie (AVI, MPEG-TS): no answer rather than a wrong one', async () => {
    assert.equal(await readVideoContainer(corpusPath('video', 'MVI_4823.AVI')), null);
    assert.equal(await readVideoContainer(corpusPath('video', 'Sony_ILCE-7M3.mts')), null);
  });
});

describe('zoned time in XMP, zero and impossible dates, MP4 and MOV alike', () => {
  const dir = tempDir('video-container');
  const XMP_TIME = '2020-11-20T15:04:02+01:00';
  const CONTAINER_UTC = '2020-11-20T14:04:36Z'; // written 34 s later, at the end of the recording

  for (const ext of ['mp4', 'mov']) {
    test(`${ext}: the XMP uuid box's zoned DateTimeOriginal wins over the container's UTC time, with and without ffprobe`, async () => {
      const file = path.join(dir, `xmp.${ext}`);
      fs.writeFileSync(file, withXmpBox(makeClip(file, { seconds: 1, audio: false, args: ['-metadata', `creation_time=${CONTAINER_UTC}`] }), XMP_TIME));
      for (const v of [await readVideoContainer(file), (await probeVideo(file)).info]) {
        assert.deepEqual([v?.creation_time, v?.capture_offset_minutes, v?.creation_time_kind], ['2020-11-20T14:04:02.000Z', 60, 'zoned']);
      }
    });

    test(`${ext}: a zero (1904) or far-future container date is no date, with and without ffprobe`, async () => {
      const zero = path.join(dir, `zero.${ext}`);
      makeClip(zero, { seconds: 1, audio: false }); // ffmpeg writes 0 when no creation_time is given
      const future = path.join(dir, `future.${ext}`);
      makeClip(future, { seconds: 1, audio: false, args: ['-metadata', 'creation_time=2039-12-31T00:00:00Z'] });
      for (const file of [zero, future]) {
        for (const v of [await readVideoContainer(file), (await probeVideo(file)).info]) assert.equal(v?.creation_time, null, path.basename(file));
      }
    });
  }
});

describe('damaged boxes never throw or hang', () => {
  test('every cut and thousands of scrambled bytes of real movies', async () => {
    const originals = ['with-gps.mov', 'FLIR_Thermal.mp4', 'ftyp3gp5.mp4', 'xmp480qt.mov'].map((f) => fs.readFileSync(corpusPath('video', f)));
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let runs = 0;
    for (const bytes of originals) {
      // The moov of these files sits within their last 64 KB or first 64 KB: cut and scramble there.
      const size = bytes.length;
      for (let i = 0; i < 40; i++) {
        const cut = Math.floor(random() * size);
        await readMovieBoxes(bufferSource(bytes.subarray(0, cut)));
        const scrambled = Buffer.from(bytes);
        for (let k = 0; k < 16; k++) {
          const at = random() < 0.5 ? Math.floor(random() * Math.min(size, 65536)) : size - 1 - Math.floor(random() * Math.min(size, 65536));
          scrambled[at] = Math.floor(random() * 256);
        }
        const r = await readMovieBoxes(bufferSource(scrambled));
        assert.ok(r.width === null || r.width >= 0);
        runs += 2;
      }
    }
    // Sizes that point nowhere: zero, one (64-bit size past the end), smaller than a header, the whole file.
    for (const size of [0, 1, 4, 0xffffffff]) {
      const b = Buffer.alloc(64);
      b.writeUInt32BE(size, 0);
      b.write('moov', 4, 'latin1');
      b.writeUInt32BE(size, 8);
      b.write('trak', 12, 'latin1');
      await readMovieBoxes(bufferSource(b));
      runs++;
    }
    assert.equal(runs, originals.length * 80 + 4);
  });
});

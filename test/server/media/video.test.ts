import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { bufferSource } from '../../../server/src/adapters/media/byte-source.ts';
import { readBoxes } from '../../../server/src/adapters/media/bmff.ts';
import { MediaToolError } from '../../../server/src/adapters/media/errors.ts';
import { runTool } from '../../../server/src/adapters/media/run-tool.ts';
import { needsWebVideo, parseIso6709, posterFrame, probeVideo, progressParser, transcodeWebVideo, type TranscodeProgress } from '../../../server/src/adapters/media/video.ts';
import { corpusPath, labels, labelOffset, labelWallClock, tempDir, wallClockOf } from './corpus.ts';


/** Where our probe legitimately differs from ExifTool's label. */
const KNOWN: Record<string, string> = {
  // AVCHD keeps its date and make in H.264 SEI "MDPM" messages, which ffprobe does not expose. The label's
  // make "264" is ExifTool's reading of that block. Its duration (0.45 s) is the video alone; ffprobe's
  // container duration (0.544 s) includes the longer AC-3 audio.
  'video/Sony_ILCE-7M3.mts': 'time, make, model, duration',
};

/** Clips stored sideways with a display matrix: our size is the displayed one. */
const ROTATED: Record<string, number> = { 'video/with-gps.mov': 90, 'video/ftyp3gp5.mp4': 90 };

/** Whether a browser-playable copy is needed, per file. */
const NEEDS_WEB: Record<string, boolean> = {
  'video/100_0306.AVI': true, // MJPEG + PCM in AVI
  'video/MVI_4823.AVI': true,
  'video/Sony_ILCE-7M3.mts': true, // MPEG-TS with AC-3
  'video/sample.3gp': true, // MPEG-4 Part 2 + AMR
  'video/FLIR_Thermal.mp4': false,
  'video/ftyp3gp5.mp4': false,
  'video/hamilton_faces_clip.mp4': false,
  'video/iphone5_gps.mov': false,
  'video/sample_640x360.mov': false, // no audio track
  'video/with-gps.mov': false,
  'video/with-gps.mp4': false,
  'video/xmp480qt.mov': false,
  'live/IMG_7943_HEVC.MOV': false, // H.264 despite its name, yuvj420p
};

describe('video probe against the corpus ground truth', () => {
  const files = [...Object.keys(labels('video')).map((f) => `video/${f}`), 'live/IMG_7943_HEVC.MOV'];
  for (const key of files) {
    test(key, async () => {
      const [folder, file] = key.split('/') as [string, string];
      const e = labels(folder)[file]!.expected_metadata;
      const known = KNOWN[key] ?? '';
      const probe = await probeVideo(corpusPath(folder, file));
      const v = probe.info;

      if (!known.includes('duration')) {
        assert.ok(Math.abs(v.duration! - e.duration_s!) <= Math.max(0.02, e.duration_s! * 0.01), `duration ${v.duration} vs ${e.duration_s}`);
      }
      const rotation = ROTATED[key] ?? 0;
      assert.equal(v.rotation, rotation, 'rotation');
      const want = rotation === 90 ? [e.height, e.width] : [e.width, e.height];
      assert.deepEqual([v.width, v.height], want, 'displayed size');
      if (e.video_frame_rate) assert.ok(Math.abs(v.fps! - e.video_frame_rate) / e.video_frame_rate < 0.005, `fps ${v.fps} vs ${e.video_frame_rate}`);
      assert.ok(v.bitrate! > 0);

      if (!known.includes('time')) {
        if (e.quicktime_creation_date) {
          // The camera's local time with its zone beats the container's (possibly re-exported) creation_time.
          assert.equal(v.creation_time_kind, 'zoned');
          assert.equal(v.capture_offset_minutes, labelOffset(e.quicktime_creation_date));
          assert.equal(wallClockOf(v.creation_time!, v.capture_offset_minutes), labelWallClock(e.quicktime_creation_date));
        } else if (e.create_date && !e.create_date.startsWith('zero')) {
          assert.equal(v.creation_time_kind, 'utc'); // MP4/QuickTime creation_time is UTC, zone unknown
          assert.equal(v.creation_time, `${labelWallClock(e.create_date)}.000Z`);
        } else if (e.datetime_original) {
          assert.equal(v.creation_time_kind, 'local'); // AVI: camera wall clock, no zone
          assert.equal(wallClockOf(v.creation_time!, null), labelWallClock(e.datetime_original));
        } else {
          assert.equal(v.creation_time, null, 'zero or missing date is no date');
        }
      }
      if (e.gps && !(e.gps.lat === 0 && e.gps.lon === 0)) {
        assert.ok(v.gps, 'gps');
        assert.ok(Math.abs(v.gps.latitude - e.gps.lat) < 1e-4 && Math.abs(v.gps.longitude - e.gps.lon) < 1e-4, `gps ${JSON.stringify(v.gps)}`);
        if (e.gps.alt_m) assert.ok(Math.abs(v.gps.altitude! - e.gps.alt_m) < 0.1, 'altitude');
      } else {
        assert.equal(v.gps, null, 'no location (including a 0,0 fix)');
      }
      if (!known.includes('make')) assert.equal(v.make, e.make ?? null, 'make');
      if (!known.includes('model')) assert.equal(v.model, e.model ?? null, 'model');
      assert.equal(v.content_identifier, e.content_identifier ?? null, 'content identifier');
      assert.equal(needsWebVideo(probe), NEEDS_WEB[key], 'needsWebVideo');
    });
  }
});

describe('web transcode, poster frames, and how failures are reported', () => {
  const dir = tempDir('video');

  test('MPEG-4 Part 2 + AMR 3GP → playable H.264/AAC MP4 with faststart', async (t) => {
    const out = path.join(dir, 'web.mp4');
    const progress: TranscodeProgress[] = [];
    const started = performance.now();
    await transcodeWebVideo(corpusPath('video', 'sample.3gp'), out, (p) => progress.push(p));
    t.diagnostic(`sample.3gp (4.9 s, 176×144) transcoded in ${(performance.now() - started).toFixed(0)} ms`);
    const probe = await probeVideo(out);
    assert.equal(probe.info.video_codec, 'h264');
    assert.equal(probe.info.audio_codec, 'aac');
    assert.equal(probe.info.pix_fmt, 'yuv420p');
    assert.match(probe.info.container!, /mp4/);
    assert.deepEqual([probe.info.width, probe.info.height], [176, 144]);
    assert.ok(Math.abs(probe.info.duration! - 4.93) < 0.15);
    assert.match(probe.raw.streams.find((s) => s.codec_type === 'video')?.profile ?? '', /^(Constrained Baseline|Baseline|Main|High)$/); // 8-bit 4:2:0 profiles
    assert.equal(needsWebVideo(probe), false, 'the copy itself needs no further copy');
    // Faststart: the index (moov) precedes the media data (mdat).
    const boxes = (await readBoxes(bufferSource(fs.readFileSync(out)), 0, fs.statSync(out).size)).map((b) => b.type);
    assert.ok(boxes.indexOf('moov') < boxes.indexOf('mdat'), boxes.join(','));
    // Progress arrives in order and ends at 1.
    assert.ok(progress.length >= 1);
    assert.equal(progress.at(-1)!.fraction, 1);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.outTime >= progress[i - 1]!.outTime);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
  });

  test('poster frame: upright (rotation applied), at 1 s, JPEG', async () => {
    const out = path.join(dir, 'poster.jpg');
    const { at } = await posterFrame(corpusPath('video', 'with-gps.mov'), out);
    assert.equal(at, 1);
    const m = await sharp(out).metadata();
    assert.equal(m.format, 'jpeg');
    assert.deepEqual([m.width, m.height], [320, 568]); // coded 568×320, displayed portrait
  });

  test('poster frame of a 0.17 s clip comes from the start; WebP; long edge ≤ 1920', async () => {
    const out = path.join(dir, 'poster.webp');
    const { at } = await posterFrame(corpusPath('video', 'with-gps.mp4'), out);
    assert.equal(at, 0);
    const m = await sharp(out).metadata();
    assert.deepEqual([m.format, m.width, m.height], ['webp', 1920, 1080]);
  });

  test('poster past the end is an error, not an empty file', async () => {
    const out = path.join(dir, 'late.jpg');
    await assert.rejects(posterFrame(corpusPath('video', 'with-gps.mp4'), out, { at: 30 }), /no frame at 30 s/);
    assert.equal(fs.existsSync(out), false);
  });

  test('file names are data, never shell or ffmpeg syntax', async () => {
    const weird = path.join(dir, "-y $(touch pwned) 'quote' concat:x|y.mov");
    fs.copyFileSync(corpusPath('video', 'xmp480qt.mov'), weird);
    const probe = await probeVideo(weird);
    assert.equal(probe.info.video_codec, 'h264');
    assert.equal(fs.existsSync(path.join(dir, 'pwned')), false);
    assert.equal(fs.existsSync(path.join(process.cwd(), 'pwned')), false);
  });

  test('a non-video: MediaToolError naming the tool, the action and the file', async () => {
    const text = path.join(dir, 'notes.mp4');
    fs.writeFileSync(text, 'not a video at all\n'.repeat(100));
    await assert.rejects(probeVideo(text), (e: unknown) => {
      assert.ok(e instanceof MediaToolError);
      assert.equal(e.tool, 'ffprobe');
      assert.equal(e.action, 'probe');
      assert.match(e.message, /ffprobe probe failed for .*notes\.mp4: exited with 1 — .*Invalid data/);
      return true;
    });
  });

  test('missing binary, timeout and abort are reported as such', async () => {
    await assert.rejects(probeVideo(corpusPath('video', 'xmp480qt.mov'), { ffprobe: path.join(dir, 'no-such-ffprobe') }), /could not start .*no-such-ffprobe/);
    const longRun = ['-hide_banner', '-f', 'lavfi', '-i', 'testsrc2=duration=600:size=320x240:rate=30', '-f', 'null', '-'];
    await assert.rejects(runTool('ffmpeg', longRun, { tool: 'ffmpeg', action: 'test', input: 'lavfi', timeoutMs: 300 }), /timed out after 300 ms/);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    await assert.rejects(runTool('ffmpeg', longRun, { tool: 'ffmpeg', action: 'test', input: 'lavfi', timeoutMs: 30_000, signal: ac.signal }), /aborted/);
  });
});

describe('video helpers', () => {
  test('ISO 6709 locations', () => {
    assert.deepEqual(parseIso6709('+38.1893-119.9558+2004.158/'), { latitude: 38.1893, longitude: -119.9558, altitude: 2004.158 });
    assert.deepEqual(parseIso6709('+51.4169-000.0806/'), { latitude: 51.4169, longitude: -0.0806, altitude: null });
    const dm = parseIso6709('+4012.30-07530.00/')!; // degrees and minutes
    assert.ok(Math.abs(dm.latitude - 40.205) < 1e-9 && Math.abs(dm.longitude + 75.5) < 1e-9);
    assert.equal(parseIso6709('+00.0000+000.0000/'), null);
    assert.equal(parseIso6709('+95.0+010.0/'), null);
    assert.equal(parseIso6709('somewhere'), null);
  });

  test('progress parser copes with chunks split anywhere', () => {
    const seen: TranscodeProgress[] = [];
    const feed = progressParser(10, (p) => seen.push(p));
    const text = 'frame=10\nout_time_us=2500000\nspeed=2.5x\nprogress=continue\nframe=40\nout_time_us=10000000\nspeed=3x\nprogress=end\n';
    for (let i = 0; i < text.length; i += 7) feed(text.slice(i, i + 7));
    assert.deepEqual(seen, [
      { fraction: 0.25, outTime: 2.5, speed: 2.5 },
      { fraction: 1, outTime: 10, speed: 3 },
    ]);
  });
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { needsWebAudio, probeAudio, transcodeWebAudio } from '../../../server/src/adapters/media/audio.ts';
import type { TranscodeProgress } from '../../../server/src/adapters/media/video-transcode.ts';
import { corpusPath, tempDir } from './corpus.ts';

/**
 * The corpus has no audio files, so the tests use real recordings taken out of corpus videos without
 * re-encoding: the AAC track of with-gps.mov (iPhone 6, 4.0 s) and the AMR-NB track of sample.3gp (2005 phone).
 */
describe('audio', () => {
  const dir = tempDir('audio');
  const m4a = path.join(dir, 'iphone-voice.m4a');
  const amr = path.join(dir, 'old-phone.amr');

  before(() => {
    for (const [src, out, fmt] of [[corpusPath('video', 'with-gps.mov'), m4a, 'ipod'], [corpusPath('video', 'sample.3gp'), amr, 'amr']] as const) {
      const r = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', src, '-vn', '-c:a', 'copy', '-f', fmt, out]);
      assert.equal(r.status, 0, String(r.stderr));
    }
  });

  test('probe: duration, codec, channels', async () => {
    const a = await probeAudio(m4a);
    assert.equal(a.info.codec, 'aac');
    assert.ok(Math.abs(a.info.duration! - 4.0) < 0.05, String(a.info.duration));
    assert.ok(a.info.sample_rate! >= 8000);
    assert.ok(a.info.channels! >= 1);
    assert.equal(needsWebAudio(a), false, 'AAC in MP4 plays in browsers as is');
    const b = await probeAudio(amr);
    assert.equal(b.info.codec, 'amr_nb');
    assert.ok(Math.abs(b.info.duration! - 4.93) < 0.1, String(b.info.duration));
    assert.equal(needsWebAudio(b), true);
  });

  test('AMR → MP3 web copy with progress', async () => {
    const out = path.join(dir, 'web.mp3');
    const progress: TranscodeProgress[] = [];
    await transcodeWebAudio(amr, out, (p) => progress.push(p));
    const probe = await probeAudio(out);
    assert.equal(probe.info.codec, 'mp3');
    assert.ok(Math.abs(probe.info.duration! - 4.93) < 0.15, String(probe.info.duration));
    assert.equal(needsWebAudio(probe), false);
    assert.equal(progress.at(-1)?.fraction, 1);
  });

  test('a file without audio fails clearly', async () => {
    await assert.rejects(transcodeWebAudio(corpusPath('video', 'xmp480qt.mov'), path.join(dir, 'none.mp3')), /ffmpeg web audio transcode failed for .*xmp480qt\.mov/);
  });
});

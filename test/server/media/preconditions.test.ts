/**
 * The media and library tests run on real media and real tools, never skipped: this names what is
 * missing when they cannot (the corpus beside the repository, Debian's ffmpeg/ffprobe).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CORPUS, HAVE_CORPUS, haveFfmpeg } from './corpus.ts';

test('the test corpus and ffmpeg/ffprobe are present', () => {
  assert.ok(HAVE_CORPUS, `corpus not found at ${CORPUS} (set HEARTH_CORPUS)`);
  assert.ok(haveFfmpeg(), 'ffmpeg/ffprobe not installed (apt-get install ffmpeg)');
});

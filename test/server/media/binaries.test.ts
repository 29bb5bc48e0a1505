import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { mediaToolsStatus, requireTool, resolveTool } from '../../../server/src/adapters/media/binaries.ts';
import { MediaToolMissingError } from '../../../server/src/adapters/media/errors.ts';
import { tempDir } from './corpus.ts';

function fakeBinary(dir: string, name: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(p, 0o755);
  return p;
}

describe('ffmpeg/ffprobe resolution', () => {
  const dir = tempDir('bin');
  const custom = path.join(dir, 'custom');
  const onPath = path.join(dir, 'onpath');
  fs.mkdirSync(custom);
  fs.mkdirSync(onPath);
  const customFfmpeg = fakeBinary(custom, 'ffmpeg');
  const customFfprobe = fakeBinary(custom, 'ffprobe');
  const pathFfmpeg = fakeBinary(onPath, 'ffmpeg');
  const pathFfprobe = fakeBinary(onPath, 'ffprobe');
  fs.writeFileSync(path.join(dir, 'not-executable'), 'x');

  test('FFMPEG_PATH / FFPROBE_PATH win over everything', () => {
    const env = { FFMPEG_PATH: customFfmpeg, FFPROBE_PATH: customFfprobe, PATH: onPath };
    assert.deepEqual([resolveTool('ffmpeg', env).path, resolveTool('ffmpeg', env).source], [customFfmpeg, 'env']);
    assert.equal(resolveTool('ffprobe', env).path, customFfprobe);
  });

  test('then PATH (ffmpeg-static is not installed here: its download cannot run offline)', () => {
    const r = resolveTool('ffmpeg', { PATH: `/nonexistent${path.delimiter}${onPath}` });
    assert.equal(r.path, pathFfmpeg);
    assert.equal(r.source, 'path');
    assert.ok(r.searched.some((s) => s.startsWith('ffmpeg-static')), 'ffmpeg-static was consulted first');
  });

  test('ffprobe is looked for beside an explicitly configured ffmpeg (ffmpeg-static ships no ffprobe)', () => {
    const r = resolveTool('ffprobe', { FFMPEG_PATH: customFfmpeg, PATH: onPath });
    assert.equal(r.path, customFfprobe);
    assert.equal(r.source, 'beside-ffmpeg');
    assert.equal(resolveTool('ffprobe', { PATH: onPath }).path, pathFfprobe);
  });

  test('a configured path that does not exist is reported, not silently replaced', () => {
    const env = { FFMPEG_PATH: path.join(dir, 'missing-ffmpeg'), PATH: onPath };
    assert.equal(resolveTool('ffmpeg', env).path, null);
    assert.throws(() => requireTool('ffmpeg', env), (e: unknown) => {
      assert.ok(e instanceof MediaToolMissingError);
      assert.match(e.message, /ffmpeg not found/);
      assert.match(e.message, /FFMPEG_PATH=/);
      assert.match(e.message, /apt-get install ffmpeg/);
      return true;
    });
    assert.equal(resolveTool('ffmpeg', { FFMPEG_PATH: path.join(dir, 'not-executable') }).path, null);
  });

  test('nothing anywhere: clear error listing where it looked', () => {
    assert.throws(() => requireTool('ffprobe', { PATH: path.join(dir, 'empty') }), /ffprobe not found \(looked at: .*empty\/ffprobe/);
    const status = mediaToolsStatus({ PATH: '' });
    assert.equal(status.ffmpeg.path, null);
    assert.equal(status.ffprobe.path, null);
  });
});

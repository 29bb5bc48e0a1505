/**
 * Media the tests make at run time (never committed): short clips from ffmpeg's test sources, files cut
 * short, noise PNGs. Everything is written to a fresh temporary folder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

export function scratchDir(prefix = 'hearth-made-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A short H.264 clip (with AAC audio unless `audio: false`) and any extra ffmpeg output options. */
export function makeClip(out: string, opts: { seconds?: number; size?: string; audio?: boolean; args?: string[] } = {}): Buffer {
  const seconds = String(opts.seconds ?? 2);
  const inputs = ['-f', 'lavfi', '-i', `testsrc=size=${opts.size ?? '160x120'}:rate=15`];
  if (opts.audio !== false) inputs.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050');
  const codecs = ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', ...(opts.audio !== false ? ['-c:a', 'aac', '-shortest'] : [])];
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-t', seconds, ...codecs, ...(opts.args ?? []), out], { stdio: ['ignore', 'ignore', 'pipe'] });
  return fs.readFileSync(out);
}

/** The first `fraction` of the bytes (a copy or upload interrupted part way). */
export function cutShort(bytes: Buffer, fraction = 0.5): Buffer {
  return Buffer.from(bytes.subarray(0, Math.floor(bytes.length * fraction)));
}

/** A PNG of noise (so that its compressed data spans the whole file). */
export function noisePng(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();
}

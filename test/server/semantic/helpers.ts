/**
 * What the semantic tests share: a models folder with the stand-in CLIP (made by its script at test time, CLIP's
 * vocabulary linked in), photos of one colour made by sharp, and videos made by ffmpeg from colour sources
 * (the stand-in sees only colour, so a frame's colour says which frame its vector came from).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { modelEntry } from '../../../server/src/adapters/ml/index.ts';
import { makeClipStandin } from '../../../scripts/models/make-clip-standin.ts';
import { SHARED_MODELS, linkModels, tempModelsDir } from '../ml/models.ts';

export const VOCAB = path.join(SHARED_MODELS, modelEntry('clip-tokenizer')!.files[0]!.path);
export const STANDIN_ENV = { HEARTH_CLIP_STANDIN: '1' };

/** A models folder with the stand-in towers and CLIP's tokenizer. */
export async function standinModelsDir(): Promise<string> {
  const dir = tempModelsDir();
  linkModels(dir, ['clip-tokenizer']);
  await makeClipStandin(dir, VOCAB);
  return dir;
}

export type Rgb = [number, number, number];
export const RED: Rgb = [220, 25, 25];
export const GREEN: Rgb = [25, 165, 40];
export const BLUE: Rgb = [25, 64, 216];
export const YELLOW: Rgb = [242, 224, 25];
export const WHITE: Rgb = [242, 242, 242];

/** A photo-like JPEG of one colour with a little texture (so near-identical photos still differ in bytes). */
export async function solidJpeg(file: string, rgb: Rgb, width = 480, height = 360, seed = 0): Promise<string> {
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.max(0, Math.min(255, rgb[i % 3]! + ((Math.imul(i + seed * 7919, 2654435761 | 0) >>> 24) % 9) - 4));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sharp(noise, { raw: { width, height, channels: 3 } }).jpeg({ quality: 88 }).toFile(file);
  return file;
}

const hex = (c: Rgb) => `0x${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/**
 * An H.264 MP4 made of colour segments (`[colour, seconds]`), hard cuts between them, 160×120 at 10 fps: what
 * the app needs no web copy of. ffmpeg's scene detector scores flat colours by their luma mostly: red → green
 * (0.22) is no cut at 0.4, red → white → blue → yellow are (1.0 each).
 */
export function colourVideo(file: string, segments: [Rgb, number][]): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const inputs = segments.flatMap(([c, s]) => ['-f', 'lavfi', '-i', `color=c=${hex(c)}:s=160x120:r=10:d=${s}`]);
  const filter = segments.map((_, i) => `[${i}:v]`).join('') + `concat=n=${segments.length}:v=1:a=0[v]`;
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', filter, '-map', '[v]', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '10', '-movflags', '+faststart', file]);
  return file;
}

export const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);

/** The palette colour (of `names`) whose text "a <name> photo" is nearest `v`. */
export function nearestColour(v: Float32Array, texts: Record<string, Float32Array>): string {
  return Object.entries(texts).sort((a, b) => dot(v, b[1]) - dot(v, a[1]))[0]![0];
}

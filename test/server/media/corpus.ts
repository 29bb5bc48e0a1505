/**
 * Shared helpers for the media adapter tests: where the real-media corpus is, its ground truth, temp folders.
 *
 * The corpus (../shared/corpus beside the repository, or HEARTH_CORPUS) is real media with labels.json per
 * folder; "expected_metadata" there was read with ExifTool 12.57 (-n: numeric orientation, signed decimal GPS).
 * Tests never write next to corpus files; outputs go to a fresh temp folder per test file.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export const CORPUS = process.env.HEARTH_CORPUS ?? path.resolve(repoRoot, '../shared/corpus');
export const HAVE_CORPUS = fs.existsSync(path.join(CORPUS, 'MANIFEST.md'));

function hasBinary(name: string): boolean {
  return spawnSync(name, ['-version'], { stdio: 'ignore' }).status === 0;
}
/**
 * Media tests need ffmpeg and ffprobe (npm test installs Debian's when missing): never skipped.
 * Asked when called, not when this module loads: most test files import this module for CORPUS, and
 * starting ffmpeg and ffprobe there cost every one of them about half a second of CPU.
 */
export function haveFfmpeg(): boolean {
  return hasBinary(process.env.FFMPEG_PATH ?? 'ffmpeg') && hasBinary(process.env.FFPROBE_PATH ?? 'ffprobe');
}

export interface ExpectedMetadata {
  mime: string;
  width?: number;
  height?: number;
  orientation?: number;
  make?: string | number;
  model?: string;
  datetime_original?: string;
  create_date?: string;
  offset_time_original?: string;
  offset_time?: string;
  gps?: { lat: number; lon: number; alt_m?: number };
  rating?: number;
  keywords?: string[] | string;
  lens_model?: string;
  media_group_uuid?: string;
  content_identifier?: string;
  duration_s?: number;
  video_frame_rate?: number;
  quicktime_creation_date?: string;
}

export interface Label {
  expected_metadata: ExpectedMetadata;
  dup_group?: string;
  dup_type?: string;
  note?: string;
}

export function corpusPath(folder: string, file: string): string {
  return path.join(CORPUS, folder, file);
}

export function labels(folder: string): Record<string, Label> {
  if (!HAVE_CORPUS) return {};
  return JSON.parse(fs.readFileSync(path.join(CORPUS, folder, 'labels.json'), 'utf8')) as Record<string, Label>;
}

/** A temp folder removed when the test file finishes. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hearth-${prefix}-`));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** "2008:05:30 15:56:01[.xx][+02:00|Z]" → "2008-05-30T15:56:01" (the wall clock ExifTool printed). */
export function labelWallClock(value: string): string {
  return value.slice(0, 19).replace(/^(\d{4}):(\d{2}):(\d{2}) /, '$1-$2-$3T');
}

/** Zone at the end of a label time ("+02:00", "Z"), in minutes; null when there is none. */
export function labelOffset(value: string | undefined): number | null {
  if (!value) return null;
  const m = /(Z|([+-])(\d{2}):(\d{2}))$/.exec(value.trim());
  if (!m) return null;
  if (m[1] === 'Z') return 0;
  const minutes = Number(m[3]) * 60 + Number(m[4]);
  return m[2] === '-' ? -minutes : minutes;
}

/** Our taken_time (UTC, or local-naive when offset is null) back to the camera's wall clock. */
export function wallClockOf(takenTime: string, offsetMinutes: number | null): string {
  return new Date(Date.parse(takenTime) + (offsetMinutes ?? 0) * 60_000).toISOString().slice(0, 19);
}

/**
 * Web copies of videos: H.264 (8-bit 4:2:0) + AAC in MP4 with the index at the front, which every browser
 * plays and can start before the download ends.
 *
 * Settings and why:
 *   - libx264 -preset veryfast -crf 23: good quality for home videos at ~3-6 s per 10 s of 1080p on these
 *     2-core machines (reference/dependencies.md §3); slower presets buy little at this size.
 *   - at most 1080 px on the short side, never upscaled, even dimensions (4:2:0 needs them). ffmpeg applies the
 *     display matrix (autorotate) before our scale filter, so the copy is upright and carries no rotation.
 *   - -pix_fmt yuv420p: 10-bit HDR (iPhone HEVC) and 4:2:2 (MJPEG) are not playable as H.264 in browsers.
 *     HDR is converted without tone mapping, so it looks flatter than on the phone (known limitation).
 *   - AAC 128 kb/s stereo; clips without audio stay silent (the audio map is optional).
 *   - -movflags +faststart: moov atom first, so playback starts immediately and seeking works over HTTP ranges.
 *   - -map_metadata 0 with use_metadata_tags: keep creation time, location and Apple tags in the copy.
 * Progress comes from `-progress pipe:1` (key=value blocks) as a fraction of the probed duration.
 * The output is written to a temporary file and renamed, so a half-written MP4 is never served.
 */
import { writeAtomically } from './atomic-write.ts';
import { requireTool } from './binaries.ts';
import { ffmpegPath, runTool } from './run-tool.ts';
import { probeVideo } from './video-probe.ts';

export interface TranscodeProgress {
  /** 0..1 (null when the duration is unknown). */
  fraction: number | null;
  /** Seconds of output written so far. */
  outTime: number;
  /** Encoding speed relative to real time ("2.5x" → 2.5), when ffmpeg reports it. */
  speed: number | null;
}

export interface TranscodeOptions {
  ffmpeg?: string;
  ffprobe?: string;
  /** Duration in seconds if already probed (saves a probe; used for progress and the timeout). */
  duration?: number | null;
  /** Default: 2 minutes + 20 × the duration (a slow machine encodes 1080p at ~0.3× real time). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Short-side limit (default 1080). */
  maxShortSide?: number;
}

/** Parse ffmpeg `-progress` output; calls `emit` once per completed block. Returns a feed function. */
export function progressParser(duration: number | null, emit: (p: TranscodeProgress) => void): (chunk: string) => void {
  let buffer = '';
  let block: Record<string, string> = {};
  return (chunk) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      const eq = line.indexOf('=');
      if (eq < 0) continue;
      const key = line.slice(0, eq);
      block[key] = line.slice(eq + 1).trim();
      if (key !== 'progress') continue;
      const us = Number(block.out_time_us ?? block.out_time_ms);
      const outTime = Number.isFinite(us) && us > 0 ? us / 1e6 : 0;
      const speed = Number.parseFloat(block.speed ?? '');
      const done = block.progress === 'end';
      const fraction = done ? 1 : duration && duration > 0 ? Math.min(0.999, outTime / duration) : null;
      emit({ fraction, outTime, speed: Number.isFinite(speed) ? speed : null });
      block = {};
    }
  };
}

/** Scale filter: short side ≤ maxShort, never upscale, both sides even. */
export function webScaleFilter(maxShort = 1080): string {
  const landscape = 'gt(iw,ih)';
  const w = `if(${landscape},-2,trunc(min(${maxShort},iw)/2)*2)`;
  const h = `if(${landscape},trunc(min(${maxShort},ih)/2)*2,-2)`;
  // out_range=tv: full-range (yuvj) sources from phones and MJPEG cameras become standard limited range.
  return `scale=w='${w}':h='${h}':out_range=tv`;
}

export async function transcodeWebVideo(
  input: string,
  output: string,
  onProgress?: (p: TranscodeProgress) => void,
  options: TranscodeOptions = {},
): Promise<void> {
  const ffmpeg = options.ffmpeg ?? requireTool('ffmpeg');
  const duration = options.duration !== undefined ? options.duration : (await probeVideo(input, { ffprobe: options.ffprobe, signal: options.signal })).info.duration;
  const timeoutMs = options.timeoutMs ?? 120_000 + (duration ?? 60) * 20_000;
  await writeAtomically(output, async (tmp) => {
    const args = [
      '-hide_banner', '-nostdin', '-y', '-loglevel', 'error',
      '-i', ffmpegPath(input),
      '-map', '0:v:0', '-map', '0:a:0?',
      '-vf', webScaleFilter(options.maxShortSide),
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p',
      '-c:a', 'aac', '-b:a', '128k', '-ac', '2',
      '-map_metadata', '0',
      '-movflags', '+faststart+use_metadata_tags',
      '-progress', 'pipe:1', '-nostats',
      '-f', 'mp4', ffmpegPath(tmp),
    ];
    const feed = onProgress ? progressParser(duration, onProgress) : () => {};
    await runTool(ffmpeg, args, { tool: 'ffmpeg', action: 'web transcode', input, timeoutMs, signal: options.signal, onStdout: feed });
  });
}

/**
 * Audio files: probe (duration, codec, tags) and the MP3 web copy.
 *
 * MP3 because it is the one lossy format every browser and every household device plays; the copy is made
 * only when the original is not already MP3 or AAC (needsWebAudio). libmp3lame VBR quality 2 (~190 kb/s) is
 * transparent for voice memos and music alike at a third of a CD's size. Cover art and other video streams
 * are dropped (-vn); tags are kept (-map_metadata 0, ID3v2.3 for the widest player support).
 */
import { writeAtomically } from './atomic-write.ts';
import { requireTool } from './binaries.ts';
import { ffprobe, type FfprobeResult, type ProbeOptions } from './ffprobe.ts';
import { ffmpegPath, runTool } from './run-tool.ts';
import { progressParser, type TranscodeProgress } from './video-transcode.ts';

export interface AudioInfo {
  /** Seconds. */
  duration: number | null;
  codec: string | null;
  container: string | null;
  sample_rate: number | null;
  channels: number | null;
  /** Bits per second. */
  bitrate: number | null;
  title: string | null;
  artist: string | null;
  album: string | null;
}

export interface AudioProbe {
  info: AudioInfo;
  raw: FfprobeResult;
}

const num = (v: string | number | undefined) => {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) ? n : null;
};

/** Tags are case-insensitive in practice (ID3 "TITLE", Vorbis "title"). */
function tag(tags: Record<string, string> | undefined, name: string): string | null {
  if (!tags) return null;
  const key = Object.keys(tags).find((k) => k.toLowerCase() === name);
  const v = key ? tags[key]?.trim() : '';
  return v || null;
}

export function audioInfoFromProbe(raw: FfprobeResult): AudioInfo {
  const stream = raw.streams.find((s) => s.codec_type === 'audio');
  const tags = { ...(stream?.tags ?? {}), ...(raw.format.tags ?? {}) };
  return {
    duration: num(raw.format.duration) ?? num(stream?.duration),
    codec: stream?.codec_name ?? null,
    container: raw.format.format_name ?? null,
    sample_rate: num(stream?.sample_rate),
    channels: stream?.channels ?? null,
    bitrate: num(raw.format.bit_rate) ?? num(stream?.bit_rate),
    title: tag(tags, 'title'),
    artist: tag(tags, 'artist'),
    album: tag(tags, 'album'),
  };
}

export async function probeAudio(input: string, options: ProbeOptions = {}): Promise<AudioProbe> {
  const raw = await ffprobe(input, options);
  return { info: audioInfoFromProbe(raw), raw };
}

/** MP3, and AAC in MP4/M4A or ADTS, play everywhere; everything else (FLAC, WAV, OGG, AMR, WMA) gets an MP3. */
export function needsWebAudio(probe: AudioProbe | AudioInfo): boolean {
  const info = 'info' in probe ? probe.info : probe;
  if (info.codec === 'mp3') return false;
  if (info.codec === 'aac') return !(info.container?.includes('mp4') || info.container?.includes('mov') || info.container === 'aac');
  return true;
}

export interface AudioTranscodeOptions {
  ffmpeg?: string;
  ffprobe?: string;
  duration?: number | null;
  /** Default: 1 minute + 2 × the duration (MP3 encodes at >20× real time here). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function transcodeWebAudio(
  input: string,
  output: string,
  onProgress?: (p: TranscodeProgress) => void,
  options: AudioTranscodeOptions = {},
): Promise<void> {
  const ffmpeg = options.ffmpeg ?? requireTool('ffmpeg');
  const info = options.duration !== undefined ? null : (await probeAudio(input, { ffprobe: options.ffprobe, signal: options.signal })).info;
  const duration = options.duration !== undefined ? options.duration : (info?.duration ?? null);
  // MP3 below 32 kHz is MPEG-2/2.5, which some players refuse; phone recordings (8 kHz AMR) are resampled.
  const rate = info?.sample_rate && [32000, 44100, 48000].includes(info.sample_rate) ? info.sample_rate : 44100;
  const timeoutMs = options.timeoutMs ?? 60_000 + (duration ?? 600) * 2_000;
  await writeAtomically(output, async (tmp) => {
    const args = [
      '-hide_banner', '-nostdin', '-y', '-loglevel', 'error',
      '-i', ffmpegPath(input),
      '-map', '0:a:0', '-vn',
      '-c:a', 'libmp3lame', '-q:a', '2', '-ar', String(rate),
      '-map_metadata', '0', '-id3v2_version', '3',
      '-progress', 'pipe:1', '-nostats',
      '-f', 'mp3', ffmpegPath(tmp),
    ];
    const feed = onProgress ? progressParser(duration, onProgress) : () => {};
    await runTool(ffmpeg, args, { tool: 'ffmpeg', action: 'web audio transcode', input, timeoutMs, signal: options.signal, onStdout: feed });
  });
}

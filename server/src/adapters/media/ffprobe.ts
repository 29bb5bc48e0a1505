/**
 * Run ffprobe and return its JSON (streams + format), typed to the fields we read.
 * Arguments go to spawn as an array (run-tool.ts), never through a shell.
 */
import { requireTool } from './binaries.ts';
import { MediaToolError } from './errors.ts';
import { ffmpegPath, runTool } from './run-tool.ts';

export interface FfprobeStream {
  index: number;
  codec_type?: 'video' | 'audio' | 'subtitle' | 'data' | 'attachment';
  codec_name?: string;
  profile?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  bit_rate?: string;
  sample_rate?: string;
  channels?: number;
  disposition?: Record<string, number>;
  tags?: Record<string, string>;
  side_data_list?: Array<{ side_data_type?: string; rotation?: number }>;
}

export interface FfprobeFormat {
  format_name?: string;
  duration?: string;
  bit_rate?: string;
  size?: string;
  tags?: Record<string, string>;
}

export interface FfprobeResult {
  streams: FfprobeStream[];
  format: FfprobeFormat;
}

export interface ProbeOptions {
  /** Path of ffprobe; default: resolved by binaries.ts. */
  ffprobe?: string;
  /** Default 30 s: probing reads headers only, a stuck probe means a pathological file. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function ffprobe(input: string, options: ProbeOptions = {}): Promise<FfprobeResult> {
  const bin = options.ffprobe ?? requireTool('ffprobe');
  const { stdout } = await runTool(
    bin,
    ['-v', 'error', '-hide_banner', '-print_format', 'json', '-show_format', '-show_streams', '-i', ffmpegPath(input)],
    { tool: 'ffprobe', action: 'probe', input, timeoutMs: options.timeoutMs ?? 30_000, signal: options.signal, maxStdoutBytes: 4 * 1024 * 1024 },
  );
  try {
    const json = JSON.parse(stdout) as Partial<FfprobeResult>;
    return { streams: Array.isArray(json.streams) ? json.streams : [], format: json.format ?? {} };
  } catch {
    throw new MediaToolError('ffprobe', 'probe', input, 'output was not JSON');
  }
}

/**
 * Which frames of a video are embedded, and the frames themselves, cut by ffmpeg into memory.
 *
 * The plan (reference, "Video frame sampling"), with N = `video_max_frames`:
 * - a clip shorter than 4 s: one frame, its midpoint;
 * - a video of `video_long_threshold_s` or more: N frames at the centres of N equal intervals;
 * - in between: ffmpeg's scene detection (at most 3 minutes of it, else uniform) (`video_scene_threshold`) cuts the video into shots, and the middle of
 *   each shot is taken, at most N of them, spread evenly over the shots when there are more; a video without a cut
 *   (one shot) gets the N uniform centres instead. Decision where the reference is silent: the middle of a shot
 *   rather than the cut itself, because the frame at a cut is often a blend or a blur of two shots.
 *
 * Frames are read from the web MP4 when the app made one (smaller, and always decodable), else from the
 * original; ffmpeg writes each as PNG to a pipe (long side at most 800 px, the medium thumbnail's size), so no
 * temporary file is ever left behind.
 */
import { requireTool } from '../../adapters/media/binaries.ts';
import { ffmpegPath, runTool } from '../../adapters/media/run-tool.ts';

export interface VideoSampling {
  /** N: at most this many frames (1–32). */
  maxFrames: number;
  /** At or above this duration (seconds), N uniform frames without scene detection. */
  longThresholdS: number;
  /** ffmpeg's scene score above which a frame starts a new shot (0.05–0.95). */
  sceneThreshold: number;
}

export const DEFAULT_SAMPLING: VideoSampling = { maxFrames: 8, longThresholdS: 300, sceneThreshold: 0.4 };
/** Below this duration a clip gets its midpoint only. */
export const SHORT_CLIP_S = 4;
/**
 * What scene detection may take (it decodes the whole video): past it, the video is sampled uniformly, so a
 * long threshold set high, a 4K video or a slow machine never runs into the index job's own time limit.
 */
const SCENE_BUDGET_MS = 3 * 60_000;
/** Long side of a cut frame (the medium thumbnail's). */
const FRAME_EDGE = 800;

export type SamplingMethod = 'midpoint' | 'uniform' | 'scenes';

/** The centres of `n` equal intervals of `durationS`, in ms. */
export function uniformCentres(durationS: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.round(((i + 0.5) * durationS * 1000) / n));
}

/** `n` of `items`, spread evenly (all of them when there are not more). */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor(((i + 0.5) * items.length) / n)]!);
}

/** Which method a duration calls for (scene detection is only run for `scenes`). */
export function samplingMethod(durationS: number, s: VideoSampling): SamplingMethod {
  if (durationS < SHORT_CLIP_S) return 'midpoint';
  if (durationS >= s.longThresholdS) return 'uniform';
  return 'scenes';
}

/**
 * The frame times (ms, ascending, distinct) for a video of `durationS`; `cuts` are the scene changes found (s),
 * used only when the method is `scenes`.
 */
export function planFrames(durationS: number, s: VideoSampling, cuts: readonly number[] = []): number[] {
  const method = samplingMethod(durationS, s);
  if (method === 'midpoint') return [Math.round((durationS * 1000) / 2)];
  const inside = [...new Set(cuts.filter((c) => c > 0 && c < durationS))].sort((a, b) => a - b);
  if (method === 'uniform' || inside.length === 0) return uniformCentres(durationS, s.maxFrames);
  const bounds = [0, ...inside, durationS];
  const middles = bounds.slice(1).map((end, i) => Math.round(((bounds[i]! + end) / 2) * 1000));
  return [...new Set(spread(middles, s.maxFrames))];
}

/** The times (s) where ffmpeg's scene score passes `threshold`. Decodes the whole video (only for mid-length ones). */
export async function sceneCuts(file: string, threshold: number, signal?: AbortSignal): Promise<number[]> {
  const { stdout } = await runTool(
    requireTool('ffmpeg'),
    [
      '-hide_banner', '-nostdin', '-loglevel', 'error',
      // One decoding thread: it is background work, and the other core stays free for browsing.
      '-threads', '1',
      '-i', ffmpegPath(file),
      '-an', '-sn', '-dn',
      // Scoring a small picture finds the same cuts for a fraction of the work.
      '-vf', `scale=w='min(320,iw)':h=-2,select='gt(scene,${threshold})',metadata=mode=print:file=-`,
      '-f', 'null', '-',
    ],
    { tool: 'ffmpeg', action: 'scene detection', input: file, timeoutMs: SCENE_BUDGET_MS, signal },
  );
  return [...stdout.matchAll(/pts_time:(-?[\d.]+)/g)].map((m) => Number(m[1])).filter(Number.isFinite);
}

/** One frame at `ms` as PNG bytes (upright, long side ≤ 800 px); null when there is no frame there. */
export async function cutFrame(file: string, ms: number, signal?: AbortSignal): Promise<Buffer | null> {
  const { bytes } = await runTool(
    requireTool('ffmpeg'),
    [
      '-hide_banner', '-nostdin', '-loglevel', 'error',
      '-ss', (ms / 1000).toFixed(3), '-i', ffmpegPath(file),
      '-frames:v', '1', '-an', '-sn', '-dn',
      '-vf', `scale=w='if(gt(iw,ih),min(${FRAME_EDGE},iw),-2)':h='if(gt(iw,ih),-2,min(${FRAME_EDGE},ih))'`,
      '-c:v', 'png', '-f', 'image2pipe', 'pipe:1',
    ],
    { tool: 'ffmpeg', action: 'frame for semantic search', input: file, timeoutMs: 60_000, signal, binary: true, maxStdoutBytes: 32 * 1024 * 1024 },
  );
  return bytes.length ? bytes : null;
}

export interface SampledFrame {
  frameTsMs: number;
  png: Buffer;
}

/**
 * The planned frames of a video, cut into memory. A planned time with no frame (a duration in the container
 * longer than its video stream) is tried once a little earlier, then left out.
 */
export async function sampleFrames(file: string, durationS: number, s: VideoSampling, signal?: AbortSignal): Promise<{ method: SamplingMethod; frames: SampledFrame[] }> {
  let method = samplingMethod(durationS, s);
  // Scene detection that fails or runs out of time leaves uniform sampling (a damaged file then fails at the cut).
  const cuts = method === 'scenes' ? await sceneCuts(file, s.sceneThreshold, signal).catch((e: unknown) => (signal?.aborted ? Promise.reject(e) : [])) : [];
  if (method === 'scenes' && !cuts.some((c) => c > 0 && c < durationS)) method = 'uniform';
  const frames: SampledFrame[] = [];
  for (const ms of planFrames(durationS, s, cuts)) {
    signal?.throwIfAborted();
    let at = ms;
    let png = await cutFrame(file, at, signal);
    if (!png && at > 0) png = await cutFrame(file, (at = Math.max(0, at - 500)), signal);
    if (png && !frames.some((f) => f.frameTsMs === at)) frames.push({ frameTsMs: at, png });
  }
  return { method, frames };
}

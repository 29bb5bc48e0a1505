/**
 * A poster frame for a video: the picture its thumbnails are made from (thumbnails.ts takes it as input).
 *
 * At 1 s rather than the first frame, because first frames are often black (fade-in) or blurred (camera
 * still focusing); clips shorter than 2 s use the first frame so the seek never lands past the end.
 * -ss before -i seeks by keyframe index (fast even in long files) and ffmpeg then decodes to the exact time.
 * The frame is upright (ffmpeg applies the display matrix) and at most 1920 px on its long side.
 * Output format follows the extension: .jpg/.jpeg (quality 2 of 31) or .webp (quality 85).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeAtomically } from './atomic-write.ts';
import { requireTool } from './binaries.ts';
import { MediaToolError } from './errors.ts';
import { ffmpegPath, runTool } from './run-tool.ts';
import { probeVideo } from './video-probe.ts';

export interface PosterOptions {
  ffmpeg?: string;
  ffprobe?: string;
  /** Seconds, if already probed. */
  duration?: number | null;
  /** Override the seek position in seconds. */
  at?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Where to take the poster: 1 s into clips of 2 s or more, else the start. */
export function posterTime(duration: number | null | undefined): number {
  return duration && duration >= 2 ? 1 : 0;
}

export async function posterFrame(input: string, output: string, options: PosterOptions = {}): Promise<{ at: number }> {
  const ffmpeg = options.ffmpeg ?? requireTool('ffmpeg');
  const ext = path.extname(output).toLowerCase();
  const codec =
    ext === '.webp' ? ['-c:v', 'libwebp', '-quality', '85'] : ext === '.jpg' || ext === '.jpeg' ? ['-c:v', 'mjpeg', '-q:v', '2'] : null;
  if (!codec) throw new MediaToolError('ffmpeg', 'poster frame', input, `unsupported poster format "${ext}" (use .jpg or .webp)`);
  const duration = options.duration !== undefined ? options.duration : (await probeVideo(input, { ffprobe: options.ffprobe, signal: options.signal })).info.duration;
  const at = options.at ?? posterTime(duration);
  await writeAtomically(output, async (tmp) => {
    await runTool(
      ffmpeg,
      [
        '-hide_banner', '-nostdin', '-y', '-loglevel', 'error',
        '-ss', String(at), '-i', ffmpegPath(input),
        '-frames:v', '1', '-an', '-sn',
        // Long edge at most 1920, never upscaled; full-range JPEG from yuvj sources stays correct.
        '-vf', "scale=w='if(gt(iw,ih),min(1920,iw),-2)':h='if(gt(iw,ih),-2,min(1920,ih))'",
        ...codec,
        '-f', 'image2', '-update', '1', ffmpegPath(tmp),
      ],
      { tool: 'ffmpeg', action: 'poster frame', input, timeoutMs: options.timeoutMs ?? 60_000, signal: options.signal },
    );
    // ffmpeg exits 0 without writing anything when the seek lands past the last frame.
    const written = await fs.stat(tmp).then((st) => st.size, () => 0);
    if (!written) throw new MediaToolError('ffmpeg', 'poster frame', input, `no frame at ${at} s`);
  });
  return { at };
}

/**
 * Where ffmpeg and ffprobe live.
 *
 * Order (DESIGN.md "Install and CI"): the FFMPEG_PATH / FFPROBE_PATH environment variables, then the
 * optional `ffmpeg-static` package (only when its binary really exists: its install script downloads it, and
 * where that download fails npm may leave a path to a file that is not there), then the PATH.
 * ffmpeg-static ships ffmpeg only, never ffprobe, so ffprobe also looks next to an explicitly configured
 * ffmpeg (a user who points FFMPEG_PATH at /opt/ffmpeg/bin/ffmpeg usually has ffprobe beside it).
 *
 * An environment variable that names a missing file is reported as missing rather than silently skipped:
 * the administrator asked for that binary and should learn that it is not there.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { MediaToolMissingError } from './errors.ts';

export type MediaTool = 'ffmpeg' | 'ffprobe';

export interface ToolResolution {
  tool: MediaTool;
  /** Absolute path of the binary, or null when none was found. */
  path: string | null;
  source: 'env' | 'ffmpeg-static' | 'beside-ffmpeg' | 'path' | null;
  /** Every place looked at, in order (for the error message and the admin status page). */
  searched: string[];
}

type Env = Record<string, string | undefined>;

function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path ffmpeg-static reports, or null when the optional package is not installed. */
function ffmpegStaticPath(): string | null {
  try {
    // createRequire for ESM; the plain require when bundled to CommonJS (import.meta.url is absent there).
    const load = typeof import.meta.url === 'string' ? createRequire(import.meta.url) : require;
    const p: unknown = load('ffmpeg-static');
    return typeof p === 'string' ? p : null;
  } catch {
    return null; // optional dependency absent (its download failed and npm rolled it back)
  }
}

function searchPath(name: string, env: Env, searched: string[]): string | null {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    searched.push(candidate);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** Find a tool without throwing; `path: null` when it is not there. */
export function resolveTool(tool: MediaTool, env: Env = process.env): ToolResolution {
  const searched: string[] = [];
  const found = (p: string, source: ToolResolution['source']): ToolResolution => ({ tool, path: p, source, searched });
  const envVar = tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH';
  const fromEnv = env[envVar];
  if (fromEnv) {
    searched.push(`${envVar}=${fromEnv}`);
    // Configured explicitly: use it or report it, never fall through to some other binary.
    return isExecutableFile(fromEnv) ? found(path.resolve(fromEnv), 'env') : { tool, path: null, source: null, searched };
  }
  if (tool === 'ffmpeg') {
    const p = ffmpegStaticPath();
    if (p) {
      searched.push(`ffmpeg-static (${p})`);
      if (isExecutableFile(p)) return found(p, 'ffmpeg-static');
    } else searched.push('ffmpeg-static (not installed)');
  } else if (env.FFMPEG_PATH) {
    const sibling = path.join(path.dirname(env.FFMPEG_PATH), 'ffprobe');
    searched.push(sibling);
    if (isExecutableFile(sibling)) return found(path.resolve(sibling), 'beside-ffmpeg');
  }
  const onPath = searchPath(tool, env, searched);
  return onPath ? found(onPath, 'path') : { tool, path: null, source: null, searched };
}

/** Find a tool or throw a MediaToolMissingError that says where we looked and how to fix it. */
export function requireTool(tool: MediaTool, env: Env = process.env): string {
  const r = resolveTool(tool, env);
  if (!r.path) throw new MediaToolMissingError(tool, r.searched);
  return r.path;
}

/** Both tools at once, for a capabilities/status report; never throws. */
export function mediaToolsStatus(env: Env = process.env): Record<MediaTool, ToolResolution> {
  return { ffmpeg: resolveTool('ffmpeg', env), ffprobe: resolveTool('ffprobe', env) };
}

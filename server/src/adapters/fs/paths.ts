/** Small path helpers for folders on the server's disks. */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Hearth's hidden folder inside every repository (staging, sidecars): never indexed. Here, below the features, so
 * that the intake's staging and the repositories both name it without importing each other.
 */
export const SYSTEM_DIR = '.hearth';

/** True when `child` is `parent` itself or lies below it (both absolute, already normalised). */
export function isSameOrInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `abs` relative to `root` with forward slashes ('' for the root itself). */
export function toPosixRel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/** The real path (symlinks resolved) when it exists, else the normalised path as given. */
export function realOrResolved(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/** A Node error code (`ENOENT`, `EACCES` …) or undefined. */
export function errnoCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A short, path-free description of a file system error ("permission denied", "not found"). */
export function describeFsError(e: unknown): string {
  switch (errnoCode(e)) {
    case 'ENOENT':
      return 'not found';
    case 'ENOTDIR':
      return 'not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EIO':
      return 'input/output error (failing disk or lost connection)';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENAMETOOLONG':
      return 'name too long';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case 'ESTALE':
      return 'stale network file handle';
    default: {
      const code = errnoCode(e);
      return code ? code.toLowerCase() : 'unreadable';
    }
  }
}

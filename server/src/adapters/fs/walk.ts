/**
 * Walks a folder tree and reports every regular file with its size and mtime, and every place the walk
 * could not see into. A caller that deletes what it did not find must only do so when `complete` is
 * true: one unreadable folder (permission denied, a failing disk, a dropped network share) makes the
 * walk incomplete, and files inside it would otherwise look deleted.
 *
 * Symbolic links are not followed (no loops, no escaping the tree); sockets, FIFOs and devices are
 * ignored. Reading is injectable (`readDir`, `stat`) so tests can make a folder fail even as root.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeFsError, errnoCode } from './paths.ts';

export interface WalkedFile {
  /** Relative to the walked root, forward slashes. */
  rel: string;
  size: number;
  mtimeMs: number;
}

export interface WalkError {
  /** The folder or file (relative, forward slashes; '' for the root) that could not be read. */
  rel: string;
  /** Path-free reason, e.g. "permission denied". */
  reason: string;
  code?: string | undefined;
}

export interface WalkOptions {
  /** True to leave an entry out (a folder is then not entered). `rel` is relative, forward slashes. */
  skip?: (rel: string, isDir: boolean) => boolean;
  readDir?: (abs: string) => Promise<fs.Dirent[]>;
  stat?: (abs: string) => Promise<fs.Stats>;
  signal?: AbortSignal | undefined;
  /** Called every `every` files found (for progress). */
  onProgress?: (filesFound: number) => void;
  every?: number;
}

export interface WalkResult {
  files: WalkedFile[];
  errors: WalkError[];
  /** True when every folder and file of the tree was read. */
  complete: boolean;
}

const defaultReadDir = (abs: string) => fs.promises.readdir(abs, { withFileTypes: true });
const defaultStat = (abs: string) => fs.promises.stat(abs);

export async function walkTree(root: string, opts: WalkOptions = {}): Promise<WalkResult> {
  const readDir = opts.readDir ?? defaultReadDir;
  const stat = opts.stat ?? defaultStat;
  const every = opts.every ?? 200;
  const files: WalkedFile[] = [];
  const errors: WalkError[] = [];
  const stack: string[] = [''];
  while (stack.length) {
    opts.signal?.throwIfAborted();
    const relDir = stack.pop()!;
    const absDir = relDir ? path.join(root, ...relDir.split('/')) : root;
    let entries: fs.Dirent[];
    try {
      entries = await readDir(absDir);
    } catch (e) {
      // A folder removed while we walked is simply gone; anything else hides what it holds.
      if (errnoCode(e) === 'ENOENT' && relDir !== '') continue;
      errors.push({ rel: relDir, reason: describeFsError(e), code: errnoCode(e) });
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!opts.skip?.(rel, true)) subdirs.push(rel);
        continue;
      }
      if (!entry.isFile() || opts.skip?.(rel, false)) continue;
      try {
        const st = await stat(path.join(absDir, entry.name));
        if (!st.isFile()) continue;
        files.push({ rel, size: st.size, mtimeMs: st.mtimeMs });
        if (opts.onProgress && files.length % every === 0) opts.onProgress(files.length);
      } catch (e) {
        if (errnoCode(e) === 'ENOENT') continue; // deleted between listing and stat
        errors.push({ rel, reason: describeFsError(e), code: errnoCode(e) });
      }
    }
    stack.push(...subdirs.reverse()); // popped in name order
  }
  return { files, errors, complete: errors.length === 0 };
}

/**
 * Where a catalogued file is: a repository-relative path resolved inside its repository (the catalog writer, the
 * pipeline and the asset API use it). The rest of what this file held is the catalog writer (catalog-writer.ts) and
 * the door (features/intake/door.ts).
 */
import path from 'node:path';

/** Resolves a repository-relative path, refusing anything that escapes the repository or enters `.hearth/`. */
export function resolveInRepository(root: string, relPath: string): string {
  const clean = relPath.replace(/\\/g, '/');
  if (clean.includes('\0') || path.isAbsolute(clean)) throw new Error(`bad repository path: ${relPath}`);
  const abs = path.resolve(root, clean);
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep)[0] === '.hearth') {
    throw new Error(`path outside the repository: ${relPath}`);
  }
  return abs;
}

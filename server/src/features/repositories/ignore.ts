/**
 * What Hearth never indexes inside a repository, for the watcher and the scan alike:
 * - `.hearth/` (Hearth's own staging and sidecars) and the `.hearth-repo` marker;
 * - hidden files and folders (a name starting with a dot: `.DS_Store`, `.git`, `.Trash-1000` …);
 * - downloads and copies still in progress, by their temporary names (`*.part`, `*.crdownload`,
 *   `*.tmp` …): the finished file arrives under its real name (a rename), and is indexed then;
 * - NAS and OS housekeeping folders that hold generated thumbnails or deleted files
 *   (Synology `@eaDir`, `#recycle`, Windows `$RECYCLE.BIN`, `System Volume Information`, `lost+found`).
 */
const PARTIAL_SUFFIXES = ['.part', '.partial', '.crdownload', '.download', '.tmp', '.temp', '.filepart', '.!ut', '.!qb', '.opdownload'];
const HOUSEKEEPING = new Set(['@eadir', '#recycle', '#snapshot', '$recycle.bin', 'system volume information', 'lost+found']);

/** `rel`: a repository-relative path with forward slashes. */
export function isIgnoredRel(rel: string): boolean {
  const parts = rel.split('/');
  for (const part of parts) {
    if (part.startsWith('.')) return true;
    if (HOUSEKEEPING.has(part.toLowerCase())) return true;
  }
  const name = parts[parts.length - 1]!.toLowerCase();
  if (name.startsWith('~$')) return true; // Office lock files
  return PARTIAL_SUFFIXES.some((s) => name.endsWith(s));
}

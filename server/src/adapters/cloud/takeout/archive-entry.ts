/**
 * One file inside one archive part, as the index sees it whatever the archive's format. Zip parts know each entry's
 * CRC-32 and compressed size from the central directory; tgz parts know only the size until the bytes stream by.
 */
import type { Entry as ZipEntry } from 'yauzl';

export interface ArchiveEntry {
  /** Index into the library's sorted part list. */
  part: number;
  /** Full path inside the archive, forward slashes, already checked safe. */
  path: string;
  size: number;
  crc32: number | null;
  /** Zip only: yauzl's entry, to open its bytes again later by random access. */
  zip: ZipEntry | null;
}

/** A part that has been opened, for the preview and for problems that name it. */
export interface PartSummary {
  name: string;
  size: number;
  entries: number;
}

export type ArchiveFormat = 'zip' | 'tgz';

export function archiveFormatOf(file: string): ArchiveFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith('.zip')) return 'zip';
  if (lower.endsWith('.tgz') || lower.endsWith('.tar.gz')) return 'tgz';
  return null;
}

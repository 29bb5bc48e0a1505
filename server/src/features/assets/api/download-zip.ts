/**
 * A zip of original files, streamed: entries are read from disk one at a time while the response is sent,
 * so memory stays flat for any number of files and any size (yazl, the DESIGN.md choice: ~240 MB/s, one
 * small dependency; ZIP64 is used automatically past 4 GB or 65 534 entries).
 *
 * - Entries are STORED, not deflated: photos and videos are already compressed, deflating them costs CPU on
 *   a two-core machine for a percent or two. With stored entries of known size yazl knows the archive's
 *   exact size before the first byte, which becomes Content-Length (browsers then show real progress).
 * - Names: the originals' file names, flat (no folders). Characters that are unsafe in a file name
 *   (path separators, control and reserved characters) become `_`; bidirectional controls are dropped
 *   (platform/http/display-names.ts). The same name twice (compared without
 *   case, as Windows and macOS do) gets " (2)", " (3)", … before its extension.
 * - Each entry keeps the file's modification time.
 * - If a file changes size or disappears after the request was checked, the archive cannot be finished:
 *   the stream fails and the connection is cut (the client sees a failed download, never a silently
 *   wrong archive). If the client goes away, every open file is closed.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { displayFileName } from '../../../platform/http/display-names.ts';

export interface ZipSource {
  /** Absolute path of the file to add. */
  file: string;
  /** Name inside the archive (already unique, see uniqueEntryNames). */
  name: string;
  size: number;
  mtime: Date;
}

// eslint-disable-next-line no-control-regex -- control characters are replaced in the names written into the zip
const UNSAFE = /[\u0000-\u001f\u007f/\\:*?"<>|]/g;

/** Safe, unique (case-insensitively) entry names, in order. */
export function uniqueEntryNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((raw, i) => {
    let name = displayFileName(raw).replace(UNSAFE, '_').replace(/^[.\s]+/, '').trim() || `file-${i + 1}`;
    if (name === '..' || name === '.') name = `file-${i + 1}`;
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    for (let k = 2; used.has(name.toLowerCase()); k++) name = `${stem} (${k})${ext}`;
    used.add(name.toLowerCase());
    return name;
  });
}

export interface ZipStream {
  stream: ReadableStream<Uint8Array>;
  /** Exact size of the archive in bytes. */
  size: number;
}

/** Starts streaming the archive. `onError` hears about failures after the response has started. */
export function streamZip(sources: ZipSource[], onError: (e: Error) => void = () => undefined): ZipStream {
  const zip = new ZipFile();
  const output = zip.outputStream as unknown as Readable;
  const open = new Set<fs.ReadStream>();
  const closeAll = () => {
    for (const rs of open) rs.destroy();
    open.clear();
  };

  zip.on('error', (e: Error) => {
    onError(e);
    closeAll();
    output.destroy(e);
  });
  output.once('close', closeAll);

  for (const s of sources) {
    zip.addReadStreamLazy(s.name, { compress: false, size: s.size, mtime: s.mtime, mode: 0o100644 }, (cb) => {
      const rs = fs.createReadStream(s.file);
      open.add(rs);
      rs.once('close', () => open.delete(rs));
      cb(null, rs);
    });
  }

  let size = -1;
  (zip.end as (options: unknown, cb: (n: number) => void) => void).call(zip, {}, (n: number) => {
    size = n;
  });
  if (size < 0) throw new Error('zip size unknown: every entry must be stored with a known size');
  return { stream: Readable.toWeb(output) as ReadableStream<Uint8Array>, size };
}

/**
 * Where a chunked session's bytes live and which of them count: the chunk geometry (every chunk but
 * the last has the session's chunk size), and the session's data file on disk.
 *
 * One data file per session, created at its full size when the session is made: each chunk is
 * written straight to its offset, so finishing the session copies nothing (the old layout kept one
 * file per chunk and wrote everything a second time to assemble them).
 *
 * What counts as received, also after a crash: the session row's `received_chunks`, which a chunk
 * joins only after its bytes were written and fsynced, and only as far as the data file still
 * covers it. A chunk that was being written when the server stopped is not in the list: its bytes
 * may be half there, and the client sends it again over them. A received chunk is never written
 * again (a repeat is read and dropped), so what was hashed stays what is on disk.
 */
import fs from 'node:fs';
import { legacyChunkPath, sessionDataPath, sessionDir } from '../intake/index.ts';
import type { SessionRow } from './uploads.store.ts';

/** Does a chunk size c split total bytes into exactly n chunks (all of c bytes but a non-empty last)? */
export function chunkSizeFits(total: number, n: number, c: number): boolean {
  return c >= 1 && c * (n - 1) < total && total <= c * n;
}

export function expectedChunkSize(total: number, n: number, c: number, index: number): number {
  return index < n - 1 ? c : total - c * (n - 1);
}

/** The chunk size a chunk of `size` bytes at `index` implies, or null when none fits. */
export function impliedChunkSize(total: number, n: number, index: number, size: number): number | null {
  if (size < 1) return null;
  let c: number;
  if (n === 1) c = total;
  else if (index < n - 1) c = size;
  else {
    if ((total - size) % (n - 1) !== 0) return null;
    c = (total - size) / (n - 1);
  }
  return chunkSizeFits(total, n, c) && expectedChunkSize(total, n, c, index) === size ? c : null;
}

/** Where chunk `index` starts in the data file, or null while the chunk size is unknown (one-chunk sessions: 0). */
export function chunkOffset(s: Pick<SessionRow, 'total_chunks' | 'chunk_size'>, index: number): number | null {
  if (s.total_chunks === 1) return 0;
  return s.chunk_size > 0 ? index * s.chunk_size : null;
}

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** Bytes of the given chunks (chunk size known). */
export function bytesOf(s: Pick<SessionRow, 'total_size' | 'total_chunks' | 'chunk_size'>, chunks: readonly number[]): number {
  let bytes = 0;
  for (const i of chunks) bytes += expectedChunkSize(s.total_size, s.total_chunks, s.chunk_size || s.total_size, i);
  return bytes;
}

/** Creates the session's folder and its data file at full size (sparse: no bytes written yet). */
export async function createDataFile(repoPath: string, s: Pick<SessionRow, 'session_id' | 'total_size'>): Promise<void> {
  await fs.promises.mkdir(sessionDir(repoPath, s.session_id), { recursive: true });
  const fh = await fs.promises.open(sessionDataPath(repoPath, s.session_id), 'w'); // a leftover of a failed create is garbage
  try {
    await fh.truncate(s.total_size);
  } finally {
    await fh.close();
  }
}

/**
 * The received chunks that the data file still holds; makes the file whole again when it is
 * missing or short (a crash, or a hand in the staging folder), and imports chunk files of the old
 * layout. `lost`: chunks the session row listed that are gone (their bytes must be sent again).
 */
export async function verifyDataFile(repoPath: string, s: SessionRow): Promise<{ received: number[]; lost: number[] }> {
  const listed = (JSON.parse(s.received_chunks) as number[]).filter((i) => Number.isInteger(i) && i >= 0 && i < s.total_chunks);
  const file = sessionDataPath(repoPath, s.session_id);
  await fs.promises.mkdir(sessionDir(repoPath, s.session_id), { recursive: true });
  const fh = await fs.promises.open(file, fs.constants.O_RDWR | fs.constants.O_CREAT);
  try {
    const size = (await fh.stat()).size;
    const covered = (i: number) => {
      const at = chunkOffset(s, i);
      return at !== null && at + expectedChunkSize(s.total_size, s.total_chunks, s.chunk_size || s.total_size, i) <= size;
    };
    const received = listed.filter(covered);
    const lost = listed.filter((i) => !covered(i));
    if (size < s.total_size) await fh.truncate(s.total_size); // never shrinks: chunks may be arriving
    const imported = await importLegacyChunks(repoPath, s, fh, new Set(received));
    const all = [...new Set([...received, ...imported])].sort((a, b) => a - b);
    return { received: all, lost };
  } finally {
    await fh.close();
  }
}

/**
 * Sessions started before the data file kept one `<i>.chunk` file per chunk, complete and of its
 * expected size: each such file is copied to its offset and removed (the data fsynced first).
 */
async function importLegacyChunks(repoPath: string, s: SessionRow, fh: fs.promises.FileHandle, have: Set<number>): Promise<number[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(sessionDir(repoPath, s.session_id));
  } catch {
    return [];
  }
  const found: { i: number; file: string }[] = [];
  for (const n of names) {
    const m = /^(\d+)\.chunk$/.exec(n);
    if (m) found.push({ i: Number(m[1]), file: legacyChunkPath(repoPath, s.session_id, Number(m[1])) });
  }
  if (found.length === 0) return [];
  const imported: number[] = [];
  const buf = Buffer.allocUnsafe(1024 * 1024);
  for (const { i, file } of found) {
    const st = await fs.promises.stat(file).catch(() => null);
    const at = chunkOffset(s, i);
    const size = at === null ? -1 : expectedChunkSize(s.total_size, s.total_chunks, s.chunk_size || s.total_size, i);
    if (st && at !== null && i < s.total_chunks && st.size === size && !have.has(i)) {
      await copyInto(file, fh, at, buf);
      imported.push(i);
    }
  }
  await fh.datasync();
  for (const { file } of found) await fs.promises.rm(file, { force: true });
  return imported;
}

/** Copies a whole file into `fh` at `at`, through `buf`. */
export async function copyInto(file: string, fh: fs.promises.FileHandle, at: number, buf: Buffer): Promise<number> {
  const src = await fs.promises.open(file, 'r');
  let pos = 0;
  try {
    for (;;) {
      const { bytesRead } = await src.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) return pos;
      let done = 0;
      while (done < bytesRead) done += (await fh.write(buf, done, bytesRead - done, at + pos + done)).bytesWritten;
      pos += bytesRead;
    }
  } finally {
    await src.close();
  }
}

/** The session's first bytes (content detection), from its data file. */
export async function readHead(file: string, bytes = 4096): Promise<Buffer> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

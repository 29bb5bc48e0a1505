/**
 * Write a derivative file atomically: to a temporary name in the same folder, then rename.
 *
 * Why: a thumbnail request can arrive while the thumbnail job is writing; a reader must see either the old
 * file, no file, or the complete new one, never half a WebP. rename() within one file system is atomic on
 * POSIX. The temporary name is unique per call so concurrent jobs for the same asset cannot collide, and it is
 * removed when anything fails.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** A temporary path beside `finalPath` (same directory, so the rename never crosses devices). */
export function tempPathFor(finalPath: string): string {
  return path.join(path.dirname(finalPath), `.${path.basename(finalPath)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Run `write(tmpPath)`, then move the result to `finalPath`. Creates the folder when needed. */
export async function writeAtomically(finalPath: string, write: (tmpPath: string) => Promise<unknown>): Promise<void> {
  await fs.mkdir(path.dirname(finalPath), { recursive: true });
  const tmp = tempPathFor(finalPath);
  try {
    await write(tmp);
    await fs.rename(tmp, finalPath);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}

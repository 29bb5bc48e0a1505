/**
 * The no-overwrite commit of a staged file into a repository, and other names for bytes already
 * there. Never overwrites: the staged file is hard-linked to the first free name (`link()` fails with
 * EEXIST atomically when the name is taken) and then the staging name is dropped. File systems
 * without hard links (FAT/exFAT, some network shares) get the fallback: reserve the name with
 * O_CREAT|O_EXCL, then rename the staged file over our own empty placeholder.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** `IMG_1.jpg` → `IMG_1 (n).jpg`. */
export function numberedName(name: string, n: number): string {
  if (n === 0) return name;
  const ext = path.extname(name);
  return `${name.slice(0, name.length - ext.length)} (${n})${ext}`;
}

const NO_LINK = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS', 'EMLINK']);

/**
 * Durable record of where a staged file is about to go (commits.ts, the door's commit records): `reserve(rel)` is called
 * before each name is tried (false: another upload holds it, try the next), `release(rel)` when the
 * name turned out to be taken on disk.
 */
export interface CommitReservation {
  reserve(relPath: string): boolean;
  release(relPath: string): void;
}

/** How a commit picks its name: see commitStaged. */
export interface CommitPlacement {
  skip?: (relPath: string) => boolean;
  reservation?: CommitReservation;
}

/**
 * Moves a staged file into the repository at `folder/name`, or `name (1)`, `name (2)`… when the
 * name is taken. Never overwrites anything. Returns the repository-relative path (forward slashes).
 * `placement.skip`: names to pass over although no file is there (a path the catalog holds for
 * another member, whose file went missing). With `placement.reservation`, each name is recorded
 * before the file is linked to it, so a crash at any point leaves the catalog knowing whose upload
 * may be there.
 */
export async function commitStaged(repoPath: string, staged: string, relFolder: string, name: string, placement: CommitPlacement = {}): Promise<string> {
  const { skip = () => false, reservation } = placement;
  const folderAbs = path.join(repoPath, ...relFolder.split('/'));
  await fs.promises.mkdir(folderAbs, { recursive: true });
  let useLink = true;
  for (let n = 0; n < 10_000; n++) {
    const candidate = n < 9_999 ? numberedName(name, n) : numberedName(name, Number.parseInt(crypto.randomBytes(4).toString('hex'), 16));
    const rel = `${relFolder}/${candidate}`;
    if (skip(rel)) continue;
    if (reservation && !reservation.reserve(rel)) continue;
    const target = path.join(folderAbs, candidate);
    if (useLink) {
      try {
        await fs.promises.link(staged, target);
        await fs.promises.unlink(staged);
        return `${relFolder}/${candidate}`;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? '';
        if (code === 'EEXIST') {
          reservation?.release(rel);
          continue;
        }
        if (!NO_LINK.has(code)) throw e;
        useLink = false; // this file system has no hard links: reserve-then-rename below
      }
    }
    let fh: fs.promises.FileHandle;
    try {
      fh = await fs.promises.open(target, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
        reservation?.release(rel);
        continue;
      }
      throw e;
    }
    await fh.close();
    try {
      await fs.promises.rename(staged, target); // replaces only our own empty placeholder
    } catch (e) {
      await fs.promises.rm(target, { force: true });
      throw e;
    }
    return `${relFolder}/${candidate}`;
  }
  throw new Error(`no free file name for ${name} in ${relFolder}`);
}

/**
 * Puts another name on `source` (a file of the repository with the same bytes) at `folder/name`,
 * or `name (1)`… when taken (or passed over, or reserved first, as in commitStaged), never overwriting: a copy-on-write clone where the file system has
 * them (the two files share their blocks, and a later edit of one leaves the other as it was),
 * else a hard link (one inode, two names). Returns the repository-relative path, or null when the
 * file system can do neither (the caller then stores its own copy).
 */
export async function commitAsCopyOf(repoPath: string, source: string, relFolder: string, name: string, placement: CommitPlacement = {}): Promise<string | null> {
  const { skip = () => false, reservation } = placement;
  const folderAbs = path.join(repoPath, ...relFolder.split('/'));
  await fs.promises.mkdir(folderAbs, { recursive: true });
  let clone = true;
  for (let n = 0; n < 10_000; n++) {
    const candidate = numberedName(name, n);
    const rel = `${relFolder}/${candidate}`;
    if (skip(rel)) continue;
    if (reservation && !reservation.reserve(rel)) continue;
    const target = path.join(folderAbs, candidate);
    try {
      if (clone) await fs.promises.copyFile(source, target, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE_FORCE);
      else await fs.promises.link(source, target);
      return rel;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') {
        reservation?.release(rel);
        continue;
      }
      if (clone && (NO_LINK.has(code) || code === 'EINVAL' || code === 'ENOTTY' || code === 'EXDEV')) {
        clone = false; // (libuv removes the target it made when the clone fails)
        n--; // the same name, as a hard link
        continue;
      }
      if (NO_LINK.has(code) || code === 'ENOENT') return null;
      throw e;
    }
  }
  return null;
}


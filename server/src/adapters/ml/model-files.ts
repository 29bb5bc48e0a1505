/**
 * Checks a model file against its registry entry before anything may load it: the size first (a
 * stat), then the sha256 of its bytes. A file that differs is refused with the reason kept (which
 * size, which digest), and onnxruntime never sees it.
 *
 * Hashing CLIP's two towers reads ~150 MB; a server start must not do that every time. The digest
 * of each file is kept by (path, size, mtime, ctime, inode) in a small JSON file in the data folder
 * (the models folder may be read-only, as ../shared/models is), so a start only stats the files; a
 * file that was replaced or touched is hashed again. The mtime alone is not enough: a copy that keeps
 * times (`cp -p`, rsync, an unpacked archive) or a write within the clock's resolution leaves it as it
 * was; the ctime is set by the kernel on every write, rename or `utimes`, and a replaced file (written
 * beside, renamed into place) has a new inode. Digests kept by an older version lack the two: those
 * files are hashed once more. Hashing streams the file (libuv's pool reads it; the event
 * loop only feeds the hash 1 MiB at a time), and a file is hashed once however many callers ask.
 *
 * A download in progress (models-fetch.ts writes `<file>.part`, then renames it into place) is seen
 * here too, from any process: a `.part` written to in the last minute means "downloading", with how
 * much has arrived.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The suffix of a file being downloaded (models-fetch.ts). */
export const PART_SUFFIX = '.part';
/** A `.part` not written to for this long is an interrupted download, not a running one. */
export const STALE_PART_MS = 60_000;

export type FileVerdict =
  | { state: 'ready'; file: string }
  | { state: 'not_installed' }
  | { state: 'downloading'; received: number }
  | { state: 'failed'; cause: string };

interface Expected {
  bytes: number;
  sha256: string;
}

interface Hashed {
  size: number;
  mtimeMs: number;
  /** Absent in digests kept by an older version (the file is then hashed again). */
  ctimeMs?: number;
  ino?: number;
  sha256: string;
}

/** What identifies one version of a file's bytes without reading them. */
type Identity = Omit<Hashed, 'sha256'>;

/** The sha256 (hex) of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Names the file and the error code only: causes are shown publicly (capabilities), paths are not. */
function unreadable(file: string, e: unknown): string {
  return `cannot read ${path.basename(file)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
}

export class ModelFileChecker {
  private cache: Map<string, Hashed> | null = null;
  private readonly hashing = new Map<string, Promise<string>>();
  private saving: Promise<void> = Promise.resolve();
  /** Files hashed (not answered from the cache) since this checker was made: what a start costs. */
  hashedFiles = 0;

  /** @param cacheFile where digests are kept between starts (null: in memory only). */
  constructor(private readonly cacheFile: string | null) {}

  /** Is `file` the registry's file? Never throws: an unreadable file is `failed` with the cause. */
  async check(file: string, expected: Expected): Promise<FileVerdict> {
    let st;
    try {
      st = await fs.stat(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return { state: 'failed', cause: unreadable(file, e) };
      return this.partial(file);
    }
    if (!st.isFile()) return { state: 'failed', cause: `${path.basename(file)} is not a file` };
    if (st.size !== expected.bytes) {
      return { state: 'failed', cause: `${path.basename(file)} has ${st.size} bytes, expected ${expected.bytes}` };
    }
    let digest: string;
    try {
      digest = await this.digest(file, { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino });
    } catch (e) {
      return { state: 'failed', cause: unreadable(file, e) };
    }
    if (digest !== expected.sha256) {
      return { state: 'failed', cause: `${path.basename(file)} has sha256 ${digest}, expected ${expected.sha256}` };
    }
    return { state: 'ready', file };
  }

  private async partial(file: string): Promise<FileVerdict> {
    try {
      const part = await fs.stat(file + PART_SUFFIX);
      if (Date.now() - part.mtimeMs < STALE_PART_MS) return { state: 'downloading', received: part.size };
    } catch {
      // no download under way
    }
    return { state: 'not_installed' };
  }

  private async digest(file: string, id: Identity): Promise<string> {
    const cache = await this.load();
    const known = cache.get(file);
    if (known && known.size === id.size && known.mtimeMs === id.mtimeMs && known.ctimeMs === id.ctimeMs && known.ino === id.ino) return known.sha256;
    let running = this.hashing.get(file);
    if (!running) {
      running = sha256File(file).finally(() => this.hashing.delete(file));
      this.hashing.set(file, running);
      const sha256 = await running;
      this.hashedFiles++;
      cache.set(file, { ...id, sha256 });
      await this.save();
      return sha256;
    }
    return running;
  }

  private async load(): Promise<Map<string, Hashed>> {
    if (this.cache) return this.cache;
    let entries: [string, Hashed][] = [];
    if (this.cacheFile) {
      try {
        const parsed = JSON.parse(await fs.readFile(this.cacheFile, 'utf8')) as Record<string, Hashed>;
        entries = Object.entries(parsed).filter(
          ([, h]) => typeof h?.size === 'number' && typeof h.mtimeMs === 'number' && /^[0-9a-f]{64}$/.test(String(h.sha256)),
        );
      } catch {
        // absent or unreadable: every file is hashed once more, nothing is lost
      }
    }
    this.cache ??= new Map(entries);
    return this.cache;
  }

  /** Writes the digests to a temporary file renamed into place (a crash leaves the old file or the new one). */
  private save(): Promise<void> {
    const file = this.cacheFile;
    if (!file || !this.cache) return Promise.resolve();
    const text = JSON.stringify(Object.fromEntries(this.cache), null, 1);
    this.saving = this.saving.then(async () => {
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(tmp, text);
        await fs.rename(tmp, file);
      } catch {
        // a read-only data folder only costs hashing again at the next start
      }
    });
    return this.saving;
  }
}

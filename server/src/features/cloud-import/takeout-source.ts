/**
 * Google Takeout archives as an import source: parts a member placed in a repository (a file manager, a NAS share,
 * a USB copy) are found, previewed and imported by a run like any other source, with no credential.
 *
 * Decisions (the contract has no Takeout; these are extensions, operations.extensions.md):
 * - Parts are named by their path inside the repository (`Takeout/takeout-20240101T000000Z-001.zip`) or a folder
 *   holding them; a path outside the repository (`..`, absolute, a link out) is refused, as is anything in Hearth's
 *   own `.hearth/` folder. Parts found in a repository are listed to choose from (`listTakeoutArchives`): every
 *   `.zip`, `.tgz` and `.tar.gz` whose name starts with `takeout-`, grouped by export (the name before its part number).
 * - One run per repository, member and archive set (the sorted parts): the set is the member's source. A second run of the same set
 *   fetches nothing again (per-item cursors), and a set with a part added imports what the new part brings.
 * - Untitled albums (Google names them "Untitled", "Untitled(2)", …) become albums only when asked
 *   (`untitled_albums`): most households do not want a dozen albums called Untitled.
 * - The archives are read, never changed or deleted: a person removes them when they are happy with the import.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Invalid, NotFound } from '../../platform/http/errors.ts';
import { SYSTEM_DIR } from '../../adapters/fs/paths.ts';

export const TAKEOUT_PROVIDER = 'google_takeout';
export const ARCHIVE = /\.(zip|tgz|tar\.gz)$/i;
export const TAKEOUT_NAME = /^takeout-/i;
/** How deep and how many entries the search for parts looks (a repository of a million photos must not be walked). */
const SEARCH_DEPTH = 3;
const SEARCH_ENTRIES = 20_000;

export interface ArchivePart {
  path: string;
  size: number;
  modified_at: string;
}

export interface ArchiveSet {
  name: string;
  parts: ArchivePart[];
  total_size: number;
}

/** The Takeout parts directly in the repository's top folders (a few levels), grouped by export. */
export async function findTakeoutArchives(repoPath: string): Promise<ArchiveSet[]> {
  const found: ArchivePart[] = [];
  let seen = 0;
  const walk = async (rel: string, depth: number): Promise<void> => {
    const entries = await fs.promises.readdir(path.join(repoPath, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++seen > SEARCH_ENTRIES) return;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== SYSTEM_DIR && !e.name.startsWith('.') && depth < SEARCH_DEPTH) await walk(childRel, depth + 1);
      } else if (e.isFile() && ARCHIVE.test(e.name) && TAKEOUT_NAME.test(e.name)) {
        const st = await fs.promises.stat(path.join(repoPath, childRel)).catch(() => null);
        if (st) found.push({ path: childRel, size: st.size, modified_at: new Date(st.mtimeMs).toISOString() });
      }
    }
  };
  await walk('', 0);
  const sets = new Map<string, ArchivePart[]>();
  for (const p of found) {
    const name = path.posix.basename(p.path).replace(ARCHIVE, '').replace(/-\d{3}$/, '');
    const key = `${path.posix.dirname(p.path)}/${name}`;
    sets.set(key, [...(sets.get(key) ?? []), p]);
  }
  return [...sets.entries()]
    .map(([key, parts]) => ({ name: path.posix.basename(key), parts: parts.sort((a, b) => (a.path < b.path ? -1 : 1)), total_size: parts.reduce((s, p) => s + p.size, 0) }))
    .sort((a, b) => (a.name < b.name ? 1 : -1));
}

/**
 * The absolute paths of the named parts, each checked to lie inside the repository (after resolving links) and
 * outside Hearth's own folder. Throws 422 naming the offending part, 404 for one that is not there.
 */
export async function resolveParts(repoPath: string, given: readonly string[]): Promise<string[]> {
  const root = await fs.promises.realpath(repoPath);
  const out: string[] = [];
  for (const [i, rel] of given.entries()) {
    const field = `body.parts.${i}`;
    // eslint-disable-next-line no-control-regex -- control characters are refused in a path a client names
    if (path.isAbsolute(rel) || rel.split(/[\\/]/).some((s) => s === '..') || /[\u0000-\u001f]/.test(rel)) {
      throw new Invalid('Name each part by its path inside the repository.', [{ field, message: 'a path inside the repository' }], 'takeout_part_outside');
    }
    const abs = await fs.promises.realpath(path.join(root, rel)).catch(() => null);
    if (!abs) throw new NotFound(`There is no ${rel} in this repository.`, 'takeout_part_not_found');
    const inside = path.relative(root, abs);
    if (inside.startsWith('..') || path.isAbsolute(inside) || inside.split(path.sep)[0] === SYSTEM_DIR) {
      throw new Invalid(`${rel} is not inside the repository.`, [{ field, message: 'outside the repository' }], 'takeout_part_outside');
    }
    out.push(abs);
  }
  return [...new Set(out)].sort();
}

/**
 * The source key of an archive set for one member: the same parts (in any order) are the same source. The member is
 * part of it: a household's shared export imported by a second member is their own source, with their own cursors
 * (else their run would find every file "unchanged", pointing at the first member's assets).
 */
export function takeoutSourceKey(repositoryId: string, ownerId: number, relParts: readonly string[]): string {
  const canonical = [...new Set(relParts.map((p) => p.replace(/\\/g, '/').replace(/^\.\//, '')))].sort().join('\n');
  return `takeout:${crypto.createHash('sha256').update(`${repositoryId}\n${ownerId}\n${canonical}`).digest('hex').slice(0, 32)}`;
}

/** Google's names for albums a person never titled. */
export function isUntitledAlbum(name: string): boolean {
  return /^untitled(?:\s*\(\d+\))?$/i.test(name.trim());
}

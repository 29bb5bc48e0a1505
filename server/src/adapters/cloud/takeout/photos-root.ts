/**
 * Where Google Photos sits inside the archive. Takeout names it in the account's language (`Takeout/Google
 * Photos`, `Takeout/Google Fotos`, `Takeout/Google Foto`…) and may hold other products beside it, so the root is
 * found, not named: the folder whose sub-folders hold the media, preferring one with a year folder in it.
 */
import path from 'node:path';

/** A year folder's name: `Photos from 2019`, `Fotos von 2019`, `2019年の写真`… any name holding a plausible year. */
export function namesAYear(folder: string): boolean {
  return /(^|\D)(18[3-9]\d|19\d\d|20\d\d|21\d\d)(\D|$)/.test(folder);
}

/** The Photos root ('' = the archive's top) given every media path, or null when there is no media at all. */
export function findPhotosRoot(mediaPaths: string[]): string | null {
  const tally = new Map<string, { media: number; hasYear: boolean }>();
  for (const p of mediaPaths) {
    const folder = path.posix.dirname(p);
    const root = folder === '.' ? '' : path.posix.dirname(folder) === '.' ? '' : path.posix.dirname(folder);
    const t = tally.get(root) ?? { media: 0, hasYear: false };
    t.media++;
    if (folder !== '.' && namesAYear(path.posix.basename(folder))) t.hasYear = true;
    tally.set(root, t);
  }
  let best: [string, { media: number; hasYear: boolean }] | null = null;
  for (const candidate of [...tally].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (
      !best ||
      (candidate[1].hasYear && !best[1].hasYear) ||
      (candidate[1].hasYear === best[1].hasYear && candidate[1].media > best[1].media)
    ) {
      best = candidate;
    }
  }
  return best ? best[0] : null;
}

/** The path under the root, or null when `p` is not inside it. */
export function underRoot(root: string, p: string): string | null {
  if (root === '') return p;
  return p.startsWith(`${root}/`) ? p.slice(root.length + 1) : null;
}

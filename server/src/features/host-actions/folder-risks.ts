/**
 * What a person should know before a folder becomes a repository (a conflict's `risk_warnings`), and the
 * one folder that may never become one: Hearth's own data folder. Decisions where the contract is silent:
 * - `removable_drive`: under /media, /run/media, /mnt or /Volumes. Informative only: photos on a USB disk
 *   are common, and an unplugged repository just pauses.
 * - `system_folder`: the file system's root, the operating system's folders, the home folder itself and
 *   the folder holding the homes. Makes the approval a `risky_folder` conflict (someone confirms).
 * - `very_large_tree`: a count of files and folders, stopped at `largeTreeEntries` (default 100 000, a
 *   second or so of reading), reached it. Also a `risky_folder` conflict.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isSameOrInside } from '../../adapters/fs/paths.ts';
import { Invalid } from '../../platform/http/errors.ts';
import type { RiskWarning } from './host-actions.view.ts';

export const LARGE_TREE_ENTRIES = 100_000;

const REMOVABLE = ['/media', '/run/media', '/mnt', '/Volumes'];
const SYSTEM = ['/', '/bin', '/boot', '/dev', '/etc', '/lib', '/lib64', '/opt', '/proc', '/root', '/run', '/sbin', '/srv', '/sys', '/usr', '/var', '/home', '/Users', '/System', '/Library', '/Applications', '/private'];
const WINDOWS_SYSTEM = [/^[a-z]:\\?$/i, /^[a-z]:\\windows(\\|$)/i, /^[a-z]:\\program files( \(x86\))?(\\|$)/i, /^[a-z]:\\programdata(\\|$)/i, /^[a-z]:\\users\\?$/i];

export interface RiskOptions {
  /** The home folder of the user running Hearth (os.homedir()). */
  home: string;
  largeTreeEntries: number;
}

export const defaultRiskOptions = (): RiskOptions => ({ home: os.homedir(), largeTreeEntries: LARGE_TREE_ENTRIES });

/** The warnings for a folder (a real, readable path). */
export function riskWarnings(dir: string, o: RiskOptions): RiskWarning[] {
  const out: RiskWarning[] = [];
  if (REMOVABLE.some((r) => dir !== r && isSameOrInside(r, dir))) out.push('removable_drive');
  const system = SYSTEM.includes(dir) || WINDOWS_SYSTEM.some((re) => re.test(dir)) || (o.home !== '' && dir === path.resolve(o.home)) || ['/usr', '/etc', '/bin', '/sbin', '/boot', '/proc', '/sys', '/dev'].some((s) => isSameOrInside(s, dir));
  if (system) out.push('system_folder');
  if (reaches(dir, o.largeTreeEntries)) out.push('very_large_tree');
  return out;
}

/** Whether the tree below `dir` holds at least `limit` files and folders (symbolic links not followed). */
function reaches(dir: string, limit: number): boolean {
  let count = 0;
  const queue = [dir];
  while (queue.length) {
    const current = queue.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      continue; // an unreadable folder counts for nothing; the scan reports it later
    }
    for (const e of entries) {
      if (++count >= limit) return true;
      if (e.isDirectory()) queue.push(path.join(current, e.name));
    }
  }
  return false;
}

/**
 * Refuses Hearth's data folder, anything inside it (its catalog, caches, backups and storage root) and
 * any folder around it: a repository there would index Hearth's own files.
 */
export function assertOutsideDataFolder(dir: string, dataDir: string): void {
  const data = realOrSelf(dataDir);
  const where = dir === data ? 'is' : isSameOrInside(data, dir) ? 'is inside' : isSameOrInside(dir, data) ? 'contains' : null;
  if (!where) return;
  throw new Invalid(`This folder ${where} Hearth's data folder (its catalog, caches and backups): choose a folder of your own.`, [{ field: 'path', message: `${where} the data folder`, code: 'data_folder' }], 'data_folder');
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

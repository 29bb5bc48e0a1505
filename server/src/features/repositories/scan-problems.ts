/**
 * What a scan could not do, stored with the scan and put into words for whoever reads it. Every
 * member may read a repository's scans, but a file's name is its owner's business (see
 * features/assets/asset-references.ts), so the problems are stored as facts (which file, which asset)
 * and rendered per reader:
 * - a file that could not be indexed is named by its repository-relative path to its owner; to
 *   others it is `asset <id>`; a file with no asset yet is named to administrators only (repository
 *   paths are for administrators, DESIGN.md);
 * - places the walk could not read are named to administrators only; members get their number;
 * - the text of a scan that failed as a whole is for administrators; members read that it failed.
 *
 * Stored in `repository_scans.error` as JSON behind a prefix; texts written before this rule are
 * shown to administrators only.
 */
import path from 'node:path';
import { assetLabel } from '../assets/index.ts';

export interface ScanProblems {
  /** Sentences that name no file. */
  notes: string[];
  /** Places (folders or files) the walk could not read, repository-relative. */
  unreadable: { rel: string; reason: string }[];
  /** Files that could not be indexed; `asset_id` when the file is catalogued. */
  failed: { rel: string; reason: string; asset_id: string | null }[];
  /** Why the scan as a whole failed (may name a path): for administrators. */
  failure?: string;
}

export interface ScanReader {
  userId: number;
  isAdmin: boolean;
}

const PREFIX = 'hearth-scan-problems:';
const MAX_LISTED = 5;
const MAX_STORED = 200;

export function emptyProblems(): ScanProblems {
  return { notes: [], unreadable: [], failed: [] };
}

/** The stored form; null when there is nothing to say. */
export function encodeScanProblems(p: ScanProblems): string | null {
  if (!p.notes.length && !p.unreadable.length && !p.failed.length && !p.failure) return null;
  const kept = { ...p, unreadable: p.unreadable.slice(0, MAX_STORED), failed: p.failed.slice(0, MAX_STORED) };
  return PREFIX + JSON.stringify({ ...kept, unreadable_total: p.unreadable.length, failed_total: p.failed.length });
}

/** The stored form of one sentence that names no file (for every reader). */
export function scanNote(text: string): string {
  return encodeScanProblems({ ...emptyProblems(), notes: [text] })!;
}

/** The assets a stored text names (to look up their owners before rendering). */
export function scanProblemAssets(stored: string | null): string[] {
  const p = decode(stored);
  return p ? p.failed.flatMap((f) => (f.asset_id ? [f.asset_id] : [])) : [];
}

/** The stored problems in words for `reader`; `owners` maps the assets named to their owners. */
export function renderScanError(stored: string | null, reader: ScanReader, owners: ReadonlyMap<string, number>): string | null {
  if (stored === null) return null;
  const p = decode(stored);
  if (!p) return reader.isAdmin ? stored : 'Details of this scan are shown to administrators.';
  const parts = [...p.notes];
  if (p.failure !== undefined) parts.push(reader.isAdmin ? `The scan failed: ${p.failure}` : 'The scan failed.');
  if (p.unreadable_total) {
    const head = `The walk was incomplete, so nothing was marked missing: ${p.unreadable_total} place(s) could not be read`;
    const where = p.unreadable.map((e) => `'${e.rel || '.'}' (${e.reason})`);
    parts.push(reader.isAdmin ? `${head}: ${listSome(where, p.unreadable_total)}.` : `${head}.`);
  }
  if (p.failed_total) {
    const named: string[] = [];
    for (const f of p.failed) {
      const owner = f.asset_id ? owners.get(f.asset_id) : undefined;
      if (f.asset_id ? owner === reader.userId : reader.isAdmin) named.push(`'${f.rel}' (${f.reason})`);
      else if (f.asset_id) named.push(`${assetLabel(f.asset_id)} (${withoutName(f.reason, f.rel, f.asset_id)})`);
    }
    const shown = named.slice(0, MAX_LISTED);
    const rest = p.failed_total - shown.length;
    const list = shown.length ? `: ${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}` : '';
    parts.push(`${p.failed_total} file(s) could not be indexed${list}.`);
  }
  return parts.join(' ') || null;
}

type Stored = ScanProblems & { unreadable_total: number; failed_total: number };

function decode(stored: string | null): Stored | null {
  if (!stored?.startsWith(PREFIX)) return null;
  try {
    return JSON.parse(stored.slice(PREFIX.length)) as Stored;
  } catch {
    return null;
  }
}

function withoutName(reason: string, rel: string, assetId: string): string {
  const label = assetLabel(assetId);
  return reason.split(rel).join(label).split(path.posix.basename(rel)).join(label);
}

function listSome(items: string[], total: number): string {
  return items.slice(0, MAX_LISTED).join(', ') + (total > MAX_LISTED ? ` and ${total - MAX_LISTED} more` : '');
}

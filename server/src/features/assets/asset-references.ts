/**
 * How errors speak of assets. A file's name and path are its owner's business: to anyone else
 * (administrators reading job errors, members reading a repository's scans) an asset is `asset <id>`.
 * Errors are rewritten this way before they are stored, and again when shown (rows written before
 * this rule existed), so no text outside the owner's own answers carries another member's file name.
 *
 * The reader's own view is the exception (AssetNames): an administrator reading the Jobs page sees the
 * file names of the photos they may read anyway (their own, and those shared with them), written back
 * into the stored `asset <id>` texts when shown; never another member's that is not shared with them.
 *
 * Administrators may still read repository-relative paths of files that are not catalogued (see
 * DESIGN.md: repository paths only for administrators); absolute server paths are never stored in an
 * error, the repository's folder is dropped.
 */
import path from 'node:path';
import type { Access, Requester } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';

export interface AssetRef {
  asset_id: string;
  storage_path: string;
  original_filename: string;
}

/** The words for an asset in text read by someone who is not its owner. */
export function assetLabel(assetId: string): string {
  return `asset ${assetId}`;
}

/** Shorter names than this are not replaced (a file called "a" would garble every sentence). */
const MIN_NAME = 3;

/**
 * `text` with every way of naming `asset` (absolute path, repository-relative path, file name, stored
 * base name) replaced by `asset <id>`. Idempotent.
 */
export function speakOfAsset(text: string, asset: AssetRef, repositoryRoot?: string): string {
  const label = assetLabel(asset.asset_id);
  const names = new Set<string>();
  if (repositoryRoot) names.add(path.join(repositoryRoot, ...asset.storage_path.split('/')));
  names.add(asset.storage_path);
  names.add(path.posix.basename(asset.storage_path));
  names.add(asset.original_filename);
  let out = text;
  for (const name of [...names].filter((n) => n.length >= MIN_NAME).sort((a, b) => b.length - a.length)) {
    out = out.split(name).join(label);
  }
  return out;
}

/** Where a path in an error text may end: white space, quotes, brackets and punctuation. */
const PATH_END = /[\s'"`)\],;]/;
const MAX_CANDIDATES = 256;
const MAX_PATH_CHARS = 1024;

/**
 * Rewrites job error texts: the assets named in the job's arguments (`asset_id`, `asset_ids`) by id,
 * and every absolute path inside a registered repository as the asset stored there (by id) or, when
 * none is, as the repository-relative path.
 */
export class AssetErrorRedactor {
  constructor(private readonly db: Db) {}

  redactJobError(args: unknown, text: string): string {
    if (!text) return text;
    let out = text;
    const roots = this.roots();
    for (const id of assetIdsOf(args)) {
      const asset = this.asset(id);
      if (asset) out = speakOfAsset(out, asset, roots.find((r) => r.repository_id === asset.repository_id)?.path);
    }
    for (const root of roots) out = this.underRoot(out, root);
    return out;
  }

  private underRoot(text: string, root: { repository_id: string; path: string }): string {
    const prefix = root.path.endsWith(path.sep) ? root.path : root.path + path.sep;
    let out = '';
    let rest = text;
    for (let i = rest.indexOf(prefix); i >= 0; i = rest.indexOf(prefix)) {
      out += rest.slice(0, i);
      rest = rest.slice(i + prefix.length);
      const match = this.catalogued(root.repository_id, rest);
      if (match) {
        out += assetLabel(match.asset_id);
        rest = rest.slice(match.length);
      }
    }
    // The folder itself (an error about the repository, not a file) is named by nothing more.
    return (out + rest).split(root.path).join('');
  }

  /** The longest catalogued storage path that `rest` starts with (paths may contain spaces). */
  private catalogued(repositoryId: string, rest: string): { asset_id: string; length: number } | null {
    const head = rest.slice(0, MAX_PATH_CHARS);
    const ends: number[] = [];
    for (let i = 1; i <= head.length; i++) if (i === head.length || PATH_END.test(head[i]!)) ends.push(i);
    const stmt = this.db.prepare('SELECT asset_id FROM assets WHERE repository_id = ? AND storage_path = ?');
    for (const end of ends.reverse().slice(0, MAX_CANDIDATES)) {
      const candidate = head.slice(0, end).replace(/[.:]+$/, '');
      const row = stmt.get(repositoryId, candidate.split(path.sep).join('/')) as { asset_id: string } | undefined;
      if (row) return { asset_id: row.asset_id, length: candidate.length };
    }
    return null;
  }

  private roots(): { repository_id: string; path: string }[] {
    return this.db.prepare('SELECT repository_id, path FROM repositories').all() as { repository_id: string; path: string }[];
  }

  private asset(id: string): (AssetRef & { repository_id: string }) | undefined {
    return this.db.prepare('SELECT asset_id, storage_path, original_filename, repository_id FROM assets WHERE asset_id = ?').get(id) as
      | (AssetRef & { repository_id: string })
      | undefined;
  }
}

/**
 * The file names of the assets a reader may read (their own, or shared with them: platform/access),
 * so texts that speak of them by id can name them to that reader. Others are left out.
 */
export class AssetNames {
  constructor(
    private readonly db: Db,
    private readonly access: Access,
  ) {}

  /** Asset id → original file name, for the ids among `ids` that `reader` may read. */
  readable(reader: Requester, ids: readonly string[]): Map<string, string> {
    const permitted = this.access.permitted(reader, 'asset', [...new Set(ids)], 'read');
    if (permitted.length === 0) return new Map();
    const rows = this.db
      .prepare('SELECT asset_id, original_filename FROM assets WHERE asset_id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(permitted)) as { asset_id: string; original_filename: string }[];
    return new Map(rows.map((r) => [r.asset_id, r.original_filename]));
  }

  /** The assets a job's arguments name (`asset_id`, `asset_ids`). */
  static of(args: unknown): string[] {
    return assetIdsOf(args);
  }
}

/** `text` with `asset <id>` replaced by the file name, for each asset of `names` (the reader may read them). */
export function nameAssets(text: string, names: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [id, name] of names) out = out.split(assetLabel(id)).join(name);
  return out;
}

function assetIdsOf(args: unknown): string[] {
  if (!args || typeof args !== 'object') return [];
  const a = args as { asset_id?: unknown; asset_ids?: unknown };
  const ids: string[] = [];
  if (typeof a.asset_id === 'string') ids.push(a.asset_id);
  if (Array.isArray(a.asset_ids)) for (const id of a.asset_ids) if (typeof id === 'string') ids.push(id);
  return ids;
}

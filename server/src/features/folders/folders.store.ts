/**
 * SQL of folder summaries. Folders are not stored: they are the distinct `assets.folder_path` values
 * (a generated column, migration 0006) of a repository.
 *
 * How it stays cheap on a large library: one grouped query per request, by folder_path only, over
 * the range of assets_repo_folder (repository_id, folder_path) that holds the subtree. Grouping by
 * the index's own order streams (no sort); each group is one folder with its counts, time span and
 * the best time of its newest cover candidates, so the rows returned are one per *folder*, not per
 * asset, and the roll-up into child folders happens in the service. A cover is then fetched with one
 * indexed lookup per child inside a single folder.
 *
 * Ranges use byte order (BINARY collation): every path below `p` starts with `p/`, and sorts in
 * [`p/`, `p0`) because '0' is the character after '/'.
 */
import type { Db } from '../../platform/db/connection.ts';

export interface FolderAggRow {
  folder_path: string;
  n: number;
  photos: number;
  videos: number;
  audios: number;
  t_min: number;
  t_max: number;
  /** Best time of the newest ready photo / ready video / photo / video in this folder (null: none). */
  photo_ready: number | null;
  video_ready: number | null;
  photo_any: number | null;
  video_any: number | null;
}

export interface RepositoryName {
  repository_id: string;
  name: string;
}

/** Which part of a repository's tree to aggregate. */
export type FolderRange = { kind: 'below' | 'subtree' | 'exact'; path: string };

function rangeSql(r: FolderRange): { sql: string; params: Record<string, unknown> } {
  // That folder's own files only. Read through assets_repo_folder (the query says so: with the
  // owner's indexes also on offer, SQLite would rather walk every live asset of the owner).
  if (r.kind === 'exact') return { sql: 'a.folder_path = @self', params: { self: r.path } };
  if (r.kind === 'below') {
    // Strictly inside `path` (its own files excluded): the child folders' subtrees.
    if (r.path === '') return { sql: "a.folder_path > ''", params: {} };
    return { sql: 'a.folder_path >= @lo AND a.folder_path < @hi', params: { lo: `${r.path}/`, hi: `${r.path}0` } };
  }
  // `path` itself and everything below it.
  if (r.path === '') return { sql: '1', params: {} };
  return {
    sql: 'a.folder_path >= @self AND a.folder_path < @hi AND (a.folder_path = @self OR substr(a.folder_path, 1, length(@lo)) = @lo)',
    params: { self: r.path, lo: `${r.path}/`, hi: `${r.path}0` },
  };
}

/** One folder's own counts (a row of FolderAggRow), grouped by folder_path. */
const AGGREGATES = `a.folder_path AS folder_path, count(*) AS n,
  sum(a.type = 'PHOTO') AS photos, sum(a.type = 'VIDEO') AS videos, sum(a.type = 'AUDIO') AS audios,
  min(a.best_time) AS t_min, max(a.best_time) AS t_max,
  max(CASE WHEN a.type = 'PHOTO' AND a.state = 'ready' THEN a.best_time END) AS photo_ready,
  max(CASE WHEN a.type = 'VIDEO' AND a.state = 'ready' THEN a.best_time END) AS video_ready,
  max(CASE WHEN a.type = 'PHOTO' THEN a.best_time END) AS photo_any,
  max(CASE WHEN a.type = 'VIDEO' THEN a.best_time END) AS video_any`;

export class FoldersStore {
  constructor(private readonly db: Db) {}

  repositories(): RepositoryName[] {
    return this.db.prepare('SELECT repository_id, name FROM repositories ORDER BY name, repository_id').all() as RepositoryName[];
  }

  /** One row per folder in the range holding at least one of the owner's live assets. */
  folders(repositoryId: string, ownerId: number, range: FolderRange): FolderAggRow[] {
    const r = rangeSql(range);
    return this.db
      .prepare(
        `SELECT ${AGGREGATES}
         FROM assets a${range.kind === 'exact' ? ' INDEXED BY assets_repo_folder' : ''}
         WHERE a.repository_id = @repo AND ${r.sql} AND a.owner_id = @owner AND a.is_deleted = 0
         GROUP BY a.folder_path`,
      )
      .all({ ...r.params, repo: repositoryId, owner: ownerId }) as FolderAggRow[];
  }

  /**
   * The next `limit` folders after `after` (from the first when null), in path order, each with
   * the counts `folders` gives: the repository read a slice at a time (folder-totals.ts).
   */
  foldersAfter(repositoryId: string, ownerId: number, after: string | null, limit: number): FolderAggRow[] {
    return this.db
      .prepare(
        `SELECT ${AGGREGATES}
         FROM assets a INDEXED BY assets_repo_folder
         WHERE a.repository_id = @repo AND a.folder_path ${after === null ? ">= ''" : '> @after'} AND a.owner_id = @owner AND a.is_deleted = 0
         GROUP BY a.folder_path ORDER BY a.folder_path LIMIT @limit`,
      )
      .all({ repo: repositoryId, owner: ownerId, limit, ...(after === null ? {} : { after }) }) as FolderAggRow[];
  }

  /** The newest matching asset of one folder at exactly this best time (ties: newest id). */
  cover(repositoryId: string, ownerId: number, folder: string, type: 'PHOTO' | 'VIDEO', readyOnly: boolean, bestTime: number): string | null {
    const id = this.db
      .prepare(
        `SELECT a.asset_id FROM assets a
         WHERE a.repository_id = @repo AND a.folder_path = @folder AND a.owner_id = @owner AND a.is_deleted = 0
           AND a.type = @type AND (@ready = 0 OR a.state = 'ready') AND a.best_time = @t
         ORDER BY a.asset_id DESC LIMIT 1`,
      )
      .pluck()
      .get({ repo: repositoryId, folder, owner: ownerId, type, ready: readyOnly ? 1 : 0, t: bestTime }) as string | undefined;
    return id ?? null;
  }
}

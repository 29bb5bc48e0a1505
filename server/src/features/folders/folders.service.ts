/**
 * Folder summaries (listFolders, getFolder), derived from where the caller's files sit inside each
 * repository. There is no folders table: a folder exists for a user while it (or a folder below it)
 * holds at least one of their assets that is not in the Trash.
 *
 * Decisions (the contract lists the fields only):
 * - Counts are files (assets), recursive: a folder counts everything below it. A RAW+JPEG pair is
 *   two files here (a folder view is about what is on disk), unlike the library grid.
 * - Only the caller's own assets count, administrators included; other members' files are invisible,
 *   so a folder holding only someone else's photos does not exist for you.
 * - cover_asset_id: the newest (capture time, else upload time) photo below the folder whose
 *   thumbnails are ready; else the newest ready video (its poster); else the newest photo or video
 *   still being processed; null for a folder of audio only.
 * - date_start / date_end: the oldest and newest capture time (else upload time) below the folder.
 * - depth: the number of path segments (`2024/summer` is 2; the repository root is 0).
 * - display_name: the last segment; for the repository root, the repository's name.
 * - listFolders without repository_id lists the child folders of `path` in every repository;
 *   a path that holds no folders (a leaf, or a folder you have nothing in) gives an empty list:
 *   getFolder tells the two apart (404 when you have nothing there).
 * - Order: by repository name, then folder name in natural order (`2` before `10`), case-insensitive.
 *
 * Cost: the counts of every folder are kept current (folder-totals.ts), so a listing is a roll-up
 * in memory plus one indexed lookup per cover; only the first listing after a start counts a
 * repository in full.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { NotFound } from '../../platform/http/errors.ts';
import type { RepositoryLookup } from '../repositories/index.ts';
import type { FolderTotals } from './folder-totals.ts';
import { FoldersStore, type FolderAggRow, type RepositoryName } from './folders.store.ts';
import type { FolderList, FolderSummary } from './folders.routes.ts';
import { displayFileName } from '../../platform/http/display-names.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Cover candidates, best first: which aggregate column, which type, ready only. */
const COVER_LEVELS = [
  ['photo_ready', 'PHOTO', true],
  ['video_ready', 'VIDEO', true],
  ['photo_any', 'PHOTO', false],
  ['video_any', 'VIDEO', false],
] as const;

interface Acc {
  path: string;
  n: number;
  photos: number;
  videos: number;
  audios: number;
  tMin: number;
  tMax: number;
  /** Per cover level: the newest best time and the folder that has it. */
  best: ({ t: number; folder: string } | null)[];
}

function newAcc(path: string): Acc {
  return { path, n: 0, photos: 0, videos: 0, audios: 0, tMin: Infinity, tMax: -Infinity, best: COVER_LEVELS.map(() => null) };
}

function add(acc: Acc, row: FolderAggRow): void {
  acc.n += row.n;
  acc.photos += row.photos;
  acc.videos += row.videos;
  acc.audios += row.audios;
  acc.tMin = Math.min(acc.tMin, row.t_min);
  acc.tMax = Math.max(acc.tMax, row.t_max);
  COVER_LEVELS.forEach(([col], i) => {
    const t = row[col];
    const cur = acc.best[i];
    if (t !== null && (!cur || t > cur.t || (t === cur.t && row.folder_path > cur.folder))) acc.best[i] = { t, folder: row.folder_path };
  });
}

export class FoldersService {
  private readonly store: FoldersStore;
  private readonly totals: FolderTotals;

  /** One per catalog, built by the container with the server's folder totals. */
  constructor(
    private readonly db: Db,
    totals: FolderTotals,
    private readonly repositories: RepositoryLookup,
  ) {
    this.store = new FoldersStore(db);
    this.totals = totals;
  }

  /** The immediate child folders of `parent` (repository-relative, '' for the root). */
  async list(actor: Actor, q: { repository_id?: string | undefined; path: string }): Promise<FolderList> {
    const repos = q.repository_id !== undefined ? [this.repository(q.repository_id)] : this.store.repositories();
    for (const repo of repos) await this.totals.prepare(repo.repository_id, actor.userId);
    // One read transaction: the kept counts and the covers come from one snapshot.
    return this.db.transaction(() => this.compute(actor, q))();
  }

  private compute(actor: Actor, q: { repository_id?: string | undefined; path: string }): FolderList {
    const repos = q.repository_id !== undefined ? [this.repository(q.repository_id)] : this.store.repositories();
    const folders: FolderSummary[] = [];
    const prefix = q.path === '' ? '' : `${q.path}/`;
    for (const repo of repos) {
      const children = new Map<string, Acc>();
      for (const row of this.totals.of(repo.repository_id, actor.userId).values()) {
        // Strictly below `path`: the child folders' subtrees (the folder's own files are not a child).
        if (row.folder_path === '' || !row.folder_path.startsWith(prefix)) continue;
        const rest = row.folder_path.slice(prefix.length);
        const slash = rest.indexOf('/');
        const name = slash === -1 ? rest : rest.slice(0, slash);
        let acc = children.get(name);
        if (!acc) children.set(name, (acc = newAcc(prefix + name)));
        add(acc, row);
      }
      const mine = [...children.values()].map((acc) => this.summary(repo, actor.userId, acc));
      mine.sort((x, y) => collator.compare(x.display_name, y.display_name) || (x.display_name < y.display_name ? -1 : x.display_name > y.display_name ? 1 : 0));
      folders.push(...mine);
    }
    return { folders, parent_path: q.path };
  }

  /** One folder (recursive counts); 404 when the caller has nothing in it. */
  async get(actor: Actor, q: { repository_id: string; path: string }): Promise<FolderSummary> {
    await this.totals.prepare(this.repository(q.repository_id).repository_id, actor.userId);
    return this.db.transaction(() => this.one(actor, q))();
  }

  private one(actor: Actor, q: { repository_id: string; path: string }): FolderSummary {
    const repo = this.repository(q.repository_id);
    const below = `${q.path}/`;
    const rows = [...this.totals.of(repo.repository_id, actor.userId).values()].filter(
      (r) => q.path === '' || r.folder_path === q.path || r.folder_path.startsWith(below),
    );
    if (rows.length === 0) throw new NotFound('No such folder, or nothing of yours is in it.', 'folder_not_found');
    const acc = newAcc(q.path);
    for (const row of rows) add(acc, row);
    return this.summary(repo, actor.userId, acc);
  }

  private repository(id: string): RepositoryName {
    return this.repositories.require(id);
  }

  private summary(repo: RepositoryName, ownerId: number, acc: Acc): FolderSummary {
    let cover: string | null = null;
    for (let i = 0; i < COVER_LEVELS.length && cover === null; i++) {
      const best = acc.best[i];
      if (best) cover = this.store.cover(repo.repository_id, ownerId, best.folder, COVER_LEVELS[i]![1], COVER_LEVELS[i]![2], best.t);
    }
    const segments = acc.path === '' ? [] : acc.path.split('/');
    return {
      asset_count: acc.n,
      audio_count: acc.audios,
      photo_count: acc.photos,
      video_count: acc.videos,
      cover_asset_id: cover,
      date_start: iso(acc.tMin),
      date_end: iso(acc.tMax),
      depth: segments.length,
      display_name: segments.length ? displayFileName(segments.at(-1)!) : repo.name,
      folder_path: acc.path,
      repository_id: repo.repository_id,
      repository_name: repo.name,
    };
  }
}

/**
 * One reconciling scan of a repository: walk the tree, then bring the catalog in line with it.
 *
 * 1. Walk (skipping `.hearth/`, hidden files and partial downloads, see ignore.ts). Any folder or
 *    file that cannot be read makes the walk incomplete.
 * 2. Only after a complete walk, and when the folder is still reachable: catalogued files that were
 *    not seen (and are still absent now) are marked missing. This comes before indexing so that a
 *    moved file, indexed at its new path next, is recognised by its hash as the missing asset
 *    (it keeps its id).
 * 3. Index new files, and catalogued files whose size or mtime differ. `force` re-checks every file
 *    with the ingest service instead of trusting size and mtime (and re-tries files remembered as
 *    not media). Files trashed in the catalog are left alone unless their content changed, so a
 *    scan never undoes a user's delete.
 *
 * Every catalog write goes through `Ingest` and through the repository's serial lane, shared with
 * the watcher, so that a watch event and a scan never index the same repository at the same time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { walkTree, type WalkOptions } from '../../adapters/fs/walk.ts';
import type { Ingest } from '../assets/ingest.contract.ts';
import { isIgnoredRel } from './ignore.ts';
import type { CatalogEntry, ScanCounts } from './repositories.store.ts';
import type { SerialLane } from './watcher.ts';
import { emptyProblems, encodeScanProblems } from './scan-problems.ts';

export interface ScanInput {
  repositoryId: string;
  root: string;
  ownerId: number;
  force: boolean;
  ingest: Ingest;
  lane: SerialLane;
  catalog: () => CatalogEntry[];
  /** Re-checks the folder (and its marker) right before anything is marked missing. */
  isReachable: () => boolean;
  /** Files seen as not media, by path → "size:mtime", so unchanged ones are not re-read every scan. */
  notMedia: Map<string, string>;
  walkFs?: Pick<WalkOptions, 'readDir' | 'stat'> | undefined;
  signal?: AbortSignal | undefined;
  progress: (fraction: number, message: string) => void;
  /** Called with the running counts (the caller throttles writes). */
  onCounts: (counts: ScanCounts) => void;
}

export interface ScanOutcome {
  counts: ScanCounts;
  completeWalk: boolean;
  /** Problems worth showing, stored as facts and put in words per reader (scan-problems.ts); null when none. */
  error: string | null;
}

export function emptyCounts(): ScanCounts {
  return { files_seen: 0, added: 0, updated: 0, moved: 0, deleted: 0, skipped: 0, failed: 0 };
}

export async function scanRepositoryTree(input: ScanInput): Promise<ScanOutcome> {
  const { repositoryId, root, ingest, lane, signal } = input;
  const counts = emptyCounts();
  const problems = emptyProblems();
  const scrub = (text: string) => text.split(root).join('');

  input.progress(0, 'listing files');
  const walk = await walkTree(root, {
    skip: (rel) => isIgnoredRel(rel),
    signal,
    onProgress: (n) => input.progress(0.05, `listing files: ${n} found`),
    ...input.walkFs,
  });
  counts.files_seen = walk.files.length;
  input.onCounts(counts);

  let completeWalk = walk.complete;
  if (!completeWalk) problems.unreadable.push(...walk.errors.map((e) => ({ rel: e.rel, reason: e.reason })));

  const catalog = new Map(input.catalog().map((e) => [e.storage_path, e]));
  const seen = new Set(walk.files.map((f) => f.rel));

  // 2. Missing files, only after a complete walk of a folder that is still there.
  const markedMissing = new Set<string>();
  if (completeWalk) {
    const absent = [...catalog.values()].filter((e) => !e.is_deleted && !seen.has(e.storage_path));
    if (absent.length && !input.isReachable()) {
      completeWalk = false;
      problems.notes.push('The repository became unreachable during the scan, so nothing was marked missing.');
    } else {
      for (const e of absent) {
        signal?.throwIfAborted();
        await lane.run(() => {
          // Appeared after the walk (the watcher may have indexed it meanwhile): not missing.
          if (fs.existsSync(path.join(root, ...e.storage_path.split('/')))) return;
          if (ingest.markMissing(repositoryId, e.storage_path)) markedMissing.add(e.asset_id);
        });
      }
    }
  }

  // 3. New and changed files; new ones first.
  const fresh: typeof walk.files = [];
  const changed: typeof walk.files = [];
  for (const f of walk.files) {
    const mtime = Math.floor(f.mtimeMs);
    const row = catalog.get(f.rel);
    if (!row) {
      if (!input.force && input.notMedia.get(f.rel) === `${f.size}:${mtime}`) counts.skipped++;
      else fresh.push(f);
      continue;
    }
    const differs = row.file_size !== f.size || row.file_mtime !== mtime;
    if (row.is_deleted ? differs : differs || input.force) changed.push(f);
    else counts.skipped++;
  }
  const todo = [...fresh, ...changed];
  let movedFromMarked = 0;
  let lastCounts = Date.now();
  for (let i = 0; i < todo.length; i++) {
    signal?.throwIfAborted();
    const f = todo[i]!;
    try {
      const out = await lane.run(() => ingest.indexFile({ repositoryId, relPath: f.rel, ownerId: input.ownerId, source: 'scan' }));
      switch (out.outcome) {
        case 'created':
          counts.added++;
          break;
        case 'updated':
        case 'restored':
          counts.updated++;
          break;
        case 'moved':
          counts.moved++;
          if (markedMissing.has(out.asset_id)) movedFromMarked++;
          break;
        case 'unsupported':
          counts.skipped++;
          input.notMedia.set(f.rel, `${f.size}:${Math.floor(f.mtimeMs)}`);
          break;
        default:
          counts.skipped++;
      }
    } catch (e) {
      counts.failed++;
      const reason = scrub(e instanceof Error ? e.message : String(e)).slice(0, 200);
      problems.failed.push({ rel: f.rel, reason, asset_id: catalog.get(f.rel)?.asset_id ?? null });
    }
    input.progress(0.1 + (0.9 * (i + 1)) / todo.length, `indexing ${i + 1} of ${todo.length}`);
    if (Date.now() - lastCounts > 500) {
      lastCounts = Date.now();
      input.onCounts({ ...counts, deleted: Math.max(0, markedMissing.size - movedFromMarked) });
    }
  }
  // A moved file's old path was marked missing first: that is a move, not a deletion.
  counts.deleted = Math.max(0, markedMissing.size - movedFromMarked);
  input.progress(1, `${counts.files_seen} files seen`);
  return { counts, completeWalk, error: encodeScanProblems(problems) };
}

/**
 * One reconciling scan of a repository: walk the tree, then bring the catalog in line with it.
 *
 * 1. Walk (skipping `.hearth/`, hidden files and partial downloads, see ignore.ts). Any folder or
 *    file that cannot be read makes the walk incomplete.
 * 2. Index new files, and catalogued files whose size or mtime differ. `force` re-checks every file
 *    with the door instead of trusting size and mtime (and re-tries files remembered as
 *    not media). Files trashed in the catalog are left alone unless their content changed, so a
 *    scan never undoes a user's delete. A file written moments ago (or that changes while it is
 *    read) may still be being copied: it is set aside and indexed once it is quiet, so no half
 *    file is catalogued.
 * 3. Only then, after a complete walk and when the folder is still reachable: catalogued files
 *    that were not seen (and are still absent now) are marked missing. Moves are reconciled first:
 *    a moved or renamed file, indexed at its new path in step 2, is recognised by its hash as the
 *    asset whose path is gone and takes the new path (and name), so it never passes through the
 *    Trash. Before marking, the scan waits for the folder watcher to report what is being written
 *    (a move under way), so the watcher's half of a move is in the lane first.
 *
 * Every catalog write goes through the door (features/intake) and through the repository's serial lane, shared with
 * the watcher, so that a watch event and a scan never index the same repository at the same time.
 * The walk and the watcher dedupe through the catalog: a path indexed by both is unchanged the
 * second time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { walkTree, type WalkOptions } from '../../adapters/fs/walk.ts';
import { waitForQuietFile, recentlyWritten } from '../../adapters/fs/write-settled.ts';
import { FileChangingError } from '../assets/index.ts';
import type { AdmissionResult, CatalogDoor } from '../intake/index.ts';
import { isIgnoredRel } from './ignore.ts';
import type { CatalogEntry, ScanCounts } from './repositories.store.ts';
import type { SerialLane } from './watcher.ts';
import { emptyProblems, encodeScanProblems } from './scan-problems.ts';
import { Pace } from '../../platform/cache/slices.ts';

export interface ScanInput {
  repositoryId: string;
  root: string;
  ownerId: number;
  force: boolean;
  door: CatalogDoor;
  lane: SerialLane;
  /** The repository's catalogued files (read in slices: repositories.store.ts). */
  catalog: () => Promise<CatalogEntry[]>;
  /** Re-checks the folder (and its marker) right before anything is marked missing. */
  isReachable: () => boolean;
  /** A file must have stopped changing for this long before it is indexed. */
  stabilityMs: number;
  /** Resolves once the repository's watcher has no write in flight (absent when not watched). */
  watcherQuiet?: (() => Promise<void>) | undefined;
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

/** How long a scan waits for one file that is still being written before leaving it to the watcher and the next scan. */
const MAX_SETTLE_WAIT_MS = 60_000;
/** How many times a file that keeps changing while it is read is tried again within one scan. */
const MAX_CHANGING_RETRIES = 3;
/** Files waited for at the same time (each is a stat every few hundred ms). */
const SETTLE_BATCH = 64;
/** The longest stretch of a scan's passes over every file between two turns of the event loop (ms). */
const SLICE_MS = 12;

export function emptyCounts(): ScanCounts {
  return { files_seen: 0, added: 0, updated: 0, moved: 0, deleted: 0, skipped: 0, failed: 0 };
}

export async function scanRepositoryTree(input: ScanInput): Promise<ScanOutcome> {
  const { repositoryId, root, door, lane, signal } = input;
  const counts = emptyCounts();
  const problems = emptyProblems();
  const scrub = (text: string) => text.split(root).join('');
  // Looked up once for the whole scan: every file's indexing gets it.
  const repository = { repository_id: repositoryId, path: root };

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

  // The passes over every file and row below are sliced (a turn of the event loop every SLICE_MS): a scan of a
  // large folder whose files are all catalogued already does little else, and each pass held the loop on its own.
  const pace = new Pace(SLICE_MS);
  const catalog = new Map<string, CatalogEntry>();
  for (const e of await input.catalog()) {
    catalog.set(e.storage_path, e);
    if (pace.due()) await pace.turn();
  }
  const seen = new Set<string>();

  // 2. New and changed files; new ones first.
  const fresh: typeof walk.files = [];
  const changed: typeof walk.files = [];
  for (const f of walk.files) {
    if (pace.due()) await pace.turn();
    seen.add(f.rel);
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
  const tally = (out: AdmissionResult, rel: string, size: number, mtimeMs: number) => {
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
        break;
      case 'unsupported':
        counts.skipped++;
        input.notMedia.set(rel, `${size}:${Math.floor(mtimeMs)}`);
        break;
      default:
        counts.skipped++;
    }
  };
  /** Indexes one file; false when it changed while it was read (still being written). */
  const indexOne = async (rel: string, size: number, mtimeMs: number): Promise<boolean> => {
    try {
      const out = await lane.run(() => door.admit({ source: 'scan', ownerId: input.ownerId, repository, file: { kind: 'in-place', relPath: rel } }));
      tally(out, rel, size, mtimeMs);
    } catch (e) {
      if (e instanceof FileChangingError) return false;
      counts.failed++;
      const reason = scrub(e instanceof Error ? e.message : String(e)).slice(0, 200);
      problems.failed.push({ rel, reason, asset_id: catalog.get(rel)?.asset_id ?? null });
    }
    return true;
  };
  const unsettled: string[] = [];
  let lastCounts = Date.now();
  const step = (done: number, total: number) => {
    input.progress(0.1 + (0.8 * done) / Math.max(1, total), `indexing ${done} of ${total}`);
    if (Date.now() - lastCounts > 500) {
      lastCounts = Date.now();
      input.onCounts({ ...counts });
    }
  };
  for (let i = 0; i < todo.length; i++) {
    signal?.throwIfAborted();
    const f = todo[i]!;
    if (recentlyWritten(f.mtimeMs, input.stabilityMs) || !(await indexOne(f.rel, f.size, f.mtimeMs))) unsettled.push(f.rel);
    step(i + 1, todo.length);
  }

  // Files still being written: wait until they are quiet (a batch at a time), then index them.
  let leftChanging = 0;
  let waiting = unsettled;
  for (let round = 0; round < MAX_CHANGING_RETRIES && waiting.length; round++) {
    const again: string[] = [];
    for (let i = 0; i < waiting.length; i += SETTLE_BATCH) {
      const batch = waiting.slice(i, i + SETTLE_BATCH);
      const quiet = await Promise.all(batch.map((rel) => waitForQuietFile(path.join(root, ...rel.split('/')), input.stabilityMs, MAX_SETTLE_WAIT_MS, signal)));
      for (let j = 0; j < batch.length; j++) {
        signal?.throwIfAborted();
        const q = quiet[j]!;
        if (!q.quiet) {
          if (q.why === 'still-changing') leftChanging++; // removed meanwhile ('gone'): nothing to catalogue
          continue;
        }
        if (!(await indexOne(batch[j]!, q.stats.size, q.stats.mtimeMs))) again.push(batch[j]!);
      }
    }
    waiting = again;
  }
  leftChanging += waiting.length;
  if (leftChanging) problems.notes.push(`${leftChanging} file(s) were still being written; they are indexed when the writing stops.`);

  // 3. Missing files, only after a complete walk of a folder that is still there, and after moves.
  let markedMissing = 0;
  if (completeWalk) {
    await input.watcherQuiet?.();
    const absent: CatalogEntry[] = [];
    for (const e of await input.catalog()) {
      if (!e.is_deleted && !seen.has(e.storage_path)) absent.push(e);
      if (pace.due()) await pace.turn();
    }
    if (absent.length && !input.isReachable()) {
      completeWalk = false;
      problems.notes.push('The repository became unreachable during the scan, so nothing was marked missing.');
    } else {
      for (const e of absent) {
        signal?.throwIfAborted();
        await lane.run(() => {
          // Appeared after the walk (the watcher may have indexed it meanwhile): not missing.
          if (fs.existsSync(path.join(root, ...e.storage_path.split('/')))) return;
          if (door.missing(repositoryId, e.storage_path)) markedMissing++;
        });
      }
    }
  }
  counts.deleted = markedMissing;
  input.progress(1, `${counts.files_seen} files seen`);
  return { counts, completeWalk, error: encodeScanProblems(problems) };
}

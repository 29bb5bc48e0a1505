/**
 * A scan of the container's primary repository run directly (not through the scan job and its watcher): for
 * tests and benchmarks that look at the scan itself (scripts/bench/scan.ts, repositories/scan-slices.test.ts).
 * The defaults are what the job passes for an unwatched, reachable folder with no stability wait; `extra`
 * replaces any of them (a file system to observe the walk with, progress, …).
 */
import type { Container } from '../../../server/src/container.ts';
import { RepositoriesStore } from '../../../server/src/features/repositories/repositories.store.ts';
import { scanRepositoryTree, type ScanInput, type ScanOutcome } from '../../../server/src/features/repositories/scanner.ts';
import { SerialLane } from '../../../server/src/features/repositories/watcher.ts';

export function scanDirectly(c: Container, ownerId: number, extra: Partial<ScanInput> = {}): Promise<ScanOutcome> {
  const repo = c.repositories.primary()!;
  const store = new RepositoriesStore(c.db);
  return scanRepositoryTree({
    repositoryId: repo.repository_id,
    root: repo.path,
    ownerId,
    force: false,
    door: c.door,
    lane: new SerialLane(),
    catalog: () => store.catalog(repo.repository_id),
    isReachable: () => true,
    stabilityMs: 0,
    notMedia: new Map(),
    progress: () => {},
    onCounts: () => {},
    ...extra,
  });
}

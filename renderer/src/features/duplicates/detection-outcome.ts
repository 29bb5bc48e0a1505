/**
 * "Find duplicates" asks detectDuplicates once per repository (the household's folders: a member's run
 * covers their own photos there, an administrator's everyone's). This turns the answers into the one
 * line the page shows. A repository where a detection is already running (409
 * `duplicate_detection_running`, usually the one that runs by itself after new photos arrive) is news,
 * not a failure: the groups it finds appear when it is done.
 */
import type { components } from '../../api/schema.d.ts';

export type DetectionCounts = components['schemas']['DuplicateDetectionResult'];

export type RepositoryDetection =
  | { repository: string; outcome: 'done'; counts: DetectionCounts }
  | { repository: string; outcome: 'running' }
  | { repository: string; outcome: 'failed'; message: string };

export interface DetectionReport {
  tone: 'success' | 'info' | 'error';
  text: string;
}

/** The problem code of a detection already running for the repository. */
export const DETECTION_RUNNING = 'duplicate_detection_running';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
const names = (list: RepositoryDetection[]) => list.map((r) => r.repository).join(', ');

export function describeDetection(results: readonly RepositoryDetection[]): DetectionReport {
  const done = results.filter((r): r is Extract<RepositoryDetection, { outcome: 'done' }> => r.outcome === 'done');
  const running = results.filter((r) => r.outcome === 'running');
  const failed = results.filter((r): r is Extract<RepositoryDetection, { outcome: 'failed' }> => r.outcome === 'failed');
  const parts: string[] = [];

  if (done.length) {
    const sum = (k: keyof Omit<DetectionCounts, 'generated_at'>) => done.reduce((n, r) => n + r.counts[k], 0);
    const groups = sum('groups');
    if (groups === 0) parts.push(running.length || failed.length ? `No duplicates found in ${names(done)}.` : 'No duplicates found.');
    else {
      const kinds = [
        sum('exact_groups') && plural(sum('exact_groups'), 'of exact copies', 'of exact copies'),
        sum('phash_groups') && plural(sum('phash_groups'), 'of similar photos', 'of similar photos'),
        sum('mixed_groups') && plural(sum('mixed_groups'), 'of both', 'of both'),
      ].filter(Boolean);
      parts.push(`Found ${plural(groups, 'group', 'groups')} of duplicates (${plural(sum('assets_affected'), 'photo', 'photos')}): ${kinds.join(', ')}.`);
    }
  }
  if (running.length) parts.push(`Duplicates are already being looked for in ${names(running)}; what is found will appear here when it is done.`);
  for (const f of failed) parts.push(`Could not look in ${f.repository}: ${f.message}`);
  if (results.length === 0) parts.push('There is no folder to look in yet.');

  return { tone: failed.length ? 'error' : running.length || results.length === 0 ? 'info' : 'success', text: parts.join(' ') };
}

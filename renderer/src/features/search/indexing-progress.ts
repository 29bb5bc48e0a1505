/** How far the indexers search reads from have got (getIndexingStats), for the search page's note. */

export type IndexingTasks = { tasks: Record<string, { indexed_count: number; total_count: number; queued_jobs: number }> };

/** The least advanced of the tasks search reads from (text in photos and their look), if any has work queued. */
export function pendingOf(stats: IndexingTasks): { done: number; total: number } | null {
  let worst: { done: number; total: number } | null = null;
  for (const name of ['ocr', 'semantic']) {
    const t = stats.tasks[name];
    if (!t || t.queued_jobs === 0 || t.indexed_count >= t.total_count) continue;
    if (!worst || t.indexed_count / Math.max(1, t.total_count) < worst.done / Math.max(1, worst.total)) worst = { done: t.indexed_count, total: t.total_count };
  }
  return worst;
}

/**
 * Tagging a selection. The contract has no bulk tag operation, so addAssetTag is called per asset,
 * a few at a time (enough to be quick, few enough not to crowd out the thumbnails loading beside
 * it). Unlike the other bulk actions it does not stop at the first failure: every asset is tried,
 * progress is counted, and the ones that failed are kept (with why) to be shown and retried.
 */
import { useCallback, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { messageOf, request } from '../api/problem';
import { libraryKeys } from './library-api';

/** Requests in flight at once. */
const CONCURRENCY = 4;

export const tagKeys = {
  all: ['tags'] as const,
  search: (q: string) => ['tags', 'search', q] as const,
};

export interface TagRun {
  name: string;
  /** Assets in this run (a retry runs over the failed ones only). */
  total: number;
  /** Assets of this run finished, tagged or failed. */
  finished: number;
  running: boolean;
  /** Assets carrying the tag over this run and the ones it retried. */
  tagged: number;
  /** Of everything asked so far. */
  asked: number;
  failed: { id: string; message: string }[];
}

/** Runs `work` over `items` with at most `limit` running at once; never rejects (work reports its own failures). */
export async function eachWithLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function useBulkTag() {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<TagRun | null>(null);

  const start = useCallback(
    async (name: string, ids: readonly string[], before?: TagRun) => {
      const base = { tagged: before?.tagged ?? 0, asked: before?.asked ?? ids.length };
      setRun({ name, total: ids.length, finished: 0, running: true, failed: [], ...base });
      await eachWithLimit(ids, CONCURRENCY, async (id) => {
        let failure: { id: string; message: string } | null = null;
        try {
          await request(api.POST('/api/v1/assets/{id}/tags', { params: { path: { id } }, body: { tag_name: name } }));
        } catch (e) {
          failure = { id, message: messageOf(e) };
        }
        setRun((r) =>
          r && {
            ...r,
            finished: r.finished + 1,
            tagged: r.tagged + (failure ? 0 : 1),
            failed: failure ? [...r.failed, failure] : r.failed,
          },
        );
      });
      setRun((r) => r && { ...r, running: false });
      // The tag filter, the suggestions and the details panels must see the new links.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
        queryClient.invalidateQueries({ queryKey: tagKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['asset'] }),
      ]);
    },
    [queryClient],
  );

  const retry = useCallback(() => {
    if (run && !run.running && run.failed.length) void start(run.name, run.failed.map((f) => f.id), run);
  }, [run, start]);

  return { run, start: (name: string, ids: readonly string[]) => void start(name, ids), retry, reset: () => setRun(null) };
}

/** Your existing tags whose name contains `q`, best first (for suggestions). */
export function useTagSuggestions(q: string, enabled: boolean) {
  return useQuery({
    queryKey: tagKeys.search(q),
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/tags', { params: { query: { ...(q ? { q } : {}), limit: 8 } }, signal })),
  });
}

/**
 * How far the face index has got (getIndexingStats, task `face`): people appear as photos are read, so
 * while faces are still being looked for the page says so and reads the people again each time more
 * photos are done, rather than waiting for someone to reload it.
 */
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { peopleKeys } from './people-api';

const POLL_MS = 3_000;

export interface FaceProgress {
  done: number;
  total: number;
  /** Photos are still waiting to be read. */
  working: boolean;
}

export function useFaceProgress(): FaceProgress | null {
  const queryClient = useQueryClient();
  const stats = useQuery({
    queryKey: [...peopleKeys.all, 'face-progress'],
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/indexing/stats', { signal })),
    refetchInterval: (q) => (q.state.data && q.state.data.tasks.face.queued_jobs > 0 ? POLL_MS : false),
  });
  const face = stats.data?.tasks.face;
  const seen = useRef<number | null>(null);
  const done = face?.indexed_count;
  const working = (face?.queued_jobs ?? 0) > 0;
  useEffect(() => {
    if (done === undefined) return;
    // More photos read (or the last ones): the people may have changed.
    if (seen.current !== null && seen.current !== done) void queryClient.invalidateQueries({ queryKey: peopleKeys.lists });
    seen.current = done;
  }, [done, working, queryClient]);
  if (!face) return null;
  return { done: face.indexed_count, total: face.total_count, working };
}

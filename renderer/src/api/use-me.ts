/**
 * The signed-in user as the server sees them now. Seeded from the session (so there is no loading
 * state after sign-in) and refetched when the window regains focus, so a role change made by an
 * administrator elsewhere shows up without a reload.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { request } from './problem';
import { queryKeys } from './query-keys';
import { session } from './session';
import type { User } from './types';

export function useMe(): User | null {
  const seed = session.getState().user;
  const query = useQuery({
    queryKey: queryKeys.me,
    queryFn: () => request(api.GET('/api/v1/auth/me')),
    initialData: seed ?? undefined,
    enabled: seed !== null,
    staleTime: 60_000,
  });
  return query.data ?? seed;
}

/**
 * App-wide providers. Also keeps the query cache in step with the session: nothing cached for one
 * account may be shown to the next, and the signed-in user's details go straight into the cache.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys';
import { session } from '../api/session';
import { createQueryClient } from './query-client';

const isBootstrapKey = (key: readonly unknown[]) => key.length === queryKeys.bootstrap.length && key.every((k, i) => k === queryKeys.bootstrap[i]);

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);

  useEffect(
    () =>
      session.onUserChange((user, previous) => {
        if (!user || (previous && previous.user_id !== user.user_id)) {
          // Signed out, or someone else signed in (in this or another tab): drop everything cached
          // except the public bootstrap status.
          queryClient.removeQueries({ predicate: (q) => !isBootstrapKey(q.queryKey) });
        }
        if (user) queryClient.setQueryData(queryKeys.me, user);
      }),
    [queryClient],
  );

  return (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
}

import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/problem';

/**
 * Retries only what may pass on its own (network trouble, a 5xx); a 4xx will answer the same again.
 * Mutations never retry: repeating a password change or a reset is not harmless.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 2 && (!(error instanceof ApiError) || error.status === 0 || error.status >= 500),
        staleTime: 10_000,
      },
      mutations: { retry: false },
    },
  });
}

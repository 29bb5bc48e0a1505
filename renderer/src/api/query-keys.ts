/** TanStack Query keys in one place, so invalidations cannot drift from the queries they target. */
export const queryKeys = {
  bootstrap: ['auth', 'bootstrap'] as const,
  me: ['auth', 'me'] as const,
  users: ['admin', 'users'] as const,
  systemSettings: ['admin', 'settings', 'system'] as const,
};

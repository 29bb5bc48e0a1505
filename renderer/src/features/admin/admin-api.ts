/** Server state of the administration page: accounts and system settings. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import type { paths } from '../../api/schema';
import type { SystemSettingsPatch } from '../../api/types';

/** A household has a handful of accounts; the API pages at 100 at most. */
export const USERS_PAGE = 100;

type UsersResponse = paths['/api/v1/users']['get']['responses'][200]['content']['application/json'];
export type AdminUser = UsersResponse['users'][number];
export type UserPatch = NonNullable<paths['/api/v1/users/{id}']['patch']['requestBody']>['content']['application/json'];

export function useUsers() {
  return useQuery({
    queryKey: queryKeys.users,
    queryFn: () => request(api.GET('/api/v1/users', { params: { query: { limit: USERS_PAGE, offset: 0 } } })),
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: UserPatch }) =>
      request(api.PATCH('/api/v1/users/{id}', { params: { path: { id } }, body: patch })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}

export function useResetAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(api.POST('/api/v1/users/{id}/reset-access', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}

export function useSystemSettings() {
  return useQuery({
    queryKey: queryKeys.systemSettings,
    queryFn: () => request(api.GET('/api/v1/settings/system')),
  });
}

export function useUpdateSystemSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: SystemSettingsPatch) => request(api.PATCH('/api/v1/settings/system', { body: patch })),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.systemSettings, settings);
      // Whether registration is open is part of the public bootstrap status.
      void queryClient.invalidateQueries({ queryKey: queryKeys.bootstrap });
    },
  });
}

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

// ---------------------------------------------------------------- reachability, invites, new accounts

/** Kept here, not in api/query-keys.ts: only the admin page reads them. */
const adminKeys = {
  network: ['admin', 'network'] as const,
  invites: ['admin', 'invites'] as const,
};

export type NetworkStatus = paths['/api/v1/system/network']['get']['responses'][200]['content']['application/json'];
export type CreatedInvite = paths['/api/v1/invites']['post']['responses'][201]['content']['application/json'];
export type Invite = CreatedInvite['invite'];
export type InviteRequest = NonNullable<paths['/api/v1/invites']['post']['requestBody']>['content']['application/json'];
export type NewUser = NonNullable<paths['/api/v1/users']['post']['requestBody']>['content']['application/json'];
export type CreatedUser = paths['/api/v1/users']['post']['responses'][201]['content']['application/json'];

export function useNetworkStatus() {
  return useQuery({ queryKey: adminKeys.network, queryFn: () => request(api.GET('/api/v1/system/network')) });
}

/** Turns "Let other devices on this network use Hearth" on or off; the listener moves at once. */
export function useAllowOtherDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (allow: boolean) => request(api.PATCH('/api/v1/settings/system', { body: { network: { allow_other_devices: allow } } })),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.systemSettings, settings);
      void queryClient.invalidateQueries({ queryKey: adminKeys.network });
    },
  });
}

export function useInvites() {
  return useQuery({ queryKey: adminKeys.invites, queryFn: () => request(api.GET('/api/v1/invites')) });
}

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteRequest) => request(api.POST('/api/v1/invites', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.invites }),
  });
}

export function useDeleteInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(api.DELETE('/api/v1/invites/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.invites }),
  });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewUser) => request(api.POST('/api/v1/users', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}

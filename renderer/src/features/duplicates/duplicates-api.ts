/**
 * Server state of the Duplicates screen: the summary (getDuplicateSummary), the pending groups a page
 * at a time (listDuplicateGroups), "Find duplicates" (detectDuplicates per repository), and resolving a
 * group (mergeDuplicateGroup, dismissDuplicateGroup).
 *
 * The keys live under the library's: a merge moves photos to the Trash, and any change to the library
 * (a photo trashed or restored in the viewer, an upload) may change the groups, so one invalidation of
 * `libraryKeys.all` refreshes both ways.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError, messageOf, request } from '../../api/problem';
import { libraryKeys } from '../../photos/library-api';
import { DETECTION_RUNNING, type RepositoryDetection } from './detection-outcome';
import { nextGroupOffset, withoutGroup, type GroupPage } from './group-pages';

export const duplicateKeys = {
  all: [...libraryKeys.all, 'duplicates'] as const,
  summary: [...libraryKeys.all, 'duplicates', 'summary'] as const,
  pending: [...libraryKeys.all, 'duplicates', 'pending'] as const,
};

/** Groups per request: each carries its photos, so a page is a screenful or two, not hundreds. */
export const GROUPS_PAGE_SIZE = 20;

export function useDuplicateSummary() {
  return useQuery({ queryKey: duplicateKeys.summary, queryFn: ({ signal }) => request(api.GET('/api/v1/duplicates/summary', { signal })) });
}

export function usePendingGroups() {
  return useInfiniteQuery({
    queryKey: duplicateKeys.pending,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      request(api.GET('/api/v1/duplicates/groups', { params: { query: { status: 'pending', limit: GROUPS_PAGE_SIZE, offset: pageParam } }, signal })),
    getNextPageParam: (last: GroupPage) => nextGroupOffset(last),
  });
}

/**
 * Detection in every repository of the household, one after the other (each is a full pass over the
 * photos there; running them side by side would only compete for the same disk and cores). Never
 * throws: each repository's outcome is reported (detection-outcome.ts).
 */
async function detectEverywhere(): Promise<RepositoryDetection[]> {
  const { repositories } = await request(api.GET('/api/v1/repositories'));
  const out: RepositoryDetection[] = [];
  for (const repo of repositories) {
    try {
      const counts = await request(api.POST('/api/v1/duplicates/detect', { body: { repository_id: repo.id } }));
      out.push({ repository: repo.name, outcome: 'done', counts });
    } catch (e) {
      if (e instanceof ApiError && e.code === DETECTION_RUNNING) out.push({ repository: repo.name, outcome: 'running' });
      else out.push({ repository: repo.name, outcome: 'failed', message: messageOf(e) });
    }
  }
  return out;
}

export function useDetectDuplicates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: detectEverywhere,
    onSettled: () => queryClient.invalidateQueries({ queryKey: duplicateKeys.all }),
  });
}

/** Takes a resolved group off the loaded pages at once, before the list is read again. */
function dropGroup(queryClient: ReturnType<typeof useQueryClient>, groupId: string) {
  queryClient.setQueryData<InfiniteData<GroupPage>>(duplicateKeys.pending, (data) => data && { ...data, pages: withoutGroup(data.pages, groupId) });
}

/**
 * Resolving a group: on success it leaves the list at once; either way the library (the Trash, the
 * timeline) and the duplicates are read again. A group someone resolved in another tab answers 409
 * `duplicate_group_resolved`: the refresh then takes it off the list too.
 */
function useResolveGroup<T extends { groupId: string }, R>(fn: (arg: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (_result, arg) => dropGroup(queryClient, arg.groupId),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['asset'] });
    },
  });
}

export function useMergeGroup() {
  return useResolveGroup(({ groupId, keeperId }: { groupId: string; keeperId: string }) =>
    request(api.POST('/api/v1/duplicates/groups/{id}/merge', { params: { path: { id: groupId } }, body: { keeper_asset_id: keeperId } })),
  );
}

export function useDismissGroup() {
  return useResolveGroup(({ groupId }: { groupId: string }) =>
    request(api.POST('/api/v1/duplicates/groups/{id}/dismiss', { params: { path: { id: groupId } } })),
  );
}

/**
 * Server state of People: the list (listPeople, hidden ones on request), one person (getPerson), renaming,
 * hiding and merging them (updatePerson, mergePeople), re-clustering (rebuildPeopleClusters, followed with
 * getPeopleRebuild), a person's photos (queryPersonAssets) and the faces of one photo with the corrections made in
 * the viewer (getAsset?include_faces, assignFace, rejectFace).
 *
 * The keys live under the library's: a photo trashed or uploaded changes the people's counts, and a
 * correction changes the photo's faces, so one invalidation of `libraryKeys.all` (and of the asset's own
 * key) refreshes both ways.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { assetKeys } from '../../photos/asset-actions-api';
import { libraryKeys, NEXT_PAGE_SIZE, PAGE_SIZE } from '../../photos/library-api';

export type { Face, Person } from './people-facts';
export type PeoplePage = components['schemas']['PeoplePage'];
type GalleryList = components['schemas']['GalleryList'];

export const peopleKeys = {
  all: [...libraryKeys.all, 'people'] as const,
  lists: [...libraryKeys.all, 'people', 'list'] as const,
  list: (includeHidden: boolean) => [...libraryKeys.all, 'people', 'list', includeHidden] as const,
  rebuild: [...libraryKeys.all, 'people', 'rebuild'] as const,
  one: (id: number) => [...libraryKeys.all, 'people', 'one', id] as const,
  assets: (id: number) => [...libraryKeys.all, 'people', 'assets', id] as const,
  /** Under the asset's own key: what refreshes the photo's details refreshes its faces too. */
  faces: (assetId: string) => [...assetKeys.detail(assetId), 'faces'] as const,
};

/** The server's most per request: a household has tens of people, so one or two requests show them all. */
export const PEOPLE_PAGE_SIZE = 100;

export function usePeople(includeHidden: boolean) {
  return useInfiniteQuery({
    queryKey: peopleKeys.list(includeHidden),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      request(api.GET('/api/v1/people', { params: { query: { limit: PEOPLE_PAGE_SIZE, offset: pageParam, ...(includeHidden ? { include_hidden: 'true' as const } : {}) } }, signal })),
    getNextPageParam: (last: PeoplePage) => (last.offset + last.people.length < last.total && last.people.length > 0 ? last.offset + last.people.length : undefined),
  });
}

export function usePerson(id: number) {
  return useQuery({
    queryKey: peopleKeys.one(id),
    enabled: Number.isInteger(id) && id > 0,
    queryFn: ({ signal }) => request(api.GET('/api/v1/people/{id}', { params: { path: { id } }, signal })),
  });
}

export type PersonChange = components['schemas']['PersonUpdate'];

export function useUpdatePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: PersonChange }) => request(api.PATCH('/api/v1/people/{id}', { params: { path: { id } }, body: change })),
    onSuccess: (person) => queryClient.setQueryData(peopleKeys.one(person.person_id), person),
    onSettled: () => queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

/** Merges `others` into `survivor` (their faces become the survivor's; they are gone). */
export function useMergePeople() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ survivor, others }: { survivor: number; others: number[] }) =>
      request(api.POST('/api/v1/people/{id}/merge', { params: { path: { id: survivor } }, body: { person_ids: others } })),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: peopleKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['asset'] });
    },
  });
}

/** The problem code of a rebuild already queued or running for the caller. */
export const REBUILD_RUNNING = 'people_rebuild_running';
const REBUILD_POLL_MS = 2_000;

/** Queues a rebuild; the page then follows it (useRebuildState) to refresh the people when it ends. */
export function useRebuildPeople() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.POST('/api/v1/people/rebuild')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: peopleKeys.rebuild }),
  });
}

/** Whether the caller's rebuild is queued or running (getPeopleRebuild: getJob is for administrators), asked again every few seconds while it is. */
export function useRebuildState() {
  return useQuery({
    queryKey: peopleKeys.rebuild,
    queryFn: ({ signal }) => request(api.GET('/api/v1/people/rebuild', { signal })),
    refetchInterval: (q) => (q.state.data?.running ? REBUILD_POLL_MS : false),
  });
}

/** A person's photos as queryAssets lists them, by the day they were taken, a page at a time. */
export function usePersonAssets(id: number) {
  return useInfiniteQuery({
    queryKey: peopleKeys.assets(id),
    enabled: Number.isInteger(id) && id > 0,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      request(
        api.POST('/api/v1/people/{id}/assets/query', {
          params: { path: { id } },
          body: { sort_by: 'date_captured', pagination: { limit: pageParam === 0 ? PAGE_SIZE : NEXT_PAGE_SIZE, offset: pageParam } },
          signal,
        }),
      ),
    getNextPageParam: (last: GalleryList) => (last.offset + last.items.length < last.total_visible && last.items.length > 0 ? last.offset + last.items.length : undefined),
  });
}


/** The faces found in one photo with their people; `face_result` null while the face task has not read it. */
export function useAssetFaces(assetId: string, enabled = true) {
  return useQuery({
    queryKey: peopleKeys.faces(assetId),
    enabled,
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/{id}', { params: { path: { id: assetId }, query: { include_faces: 'true' } }, signal })),
    select: (a) => ({ faces: a.face_result?.faces ?? null, place: a.place }),
  });
}

/** A face moved ("This is…": `personId` a person, null someone new) or taken from its person ("Not this person"). */
export function useFaceCorrection(assetId: string) {
  const queryClient = useQueryClient();
  const settled = async () => {
    await queryClient.invalidateQueries({ queryKey: peopleKeys.faces(assetId) });
    await queryClient.invalidateQueries({ queryKey: peopleKeys.all });
  };
  const assign = useMutation({
    mutationFn: ({ faceId, personId }: { faceId: number; personId: number | null }) =>
      request(api.POST('/api/v1/faces/{faceId}/assign', { params: { path: { faceId } }, body: { person_id: personId } })),
    onSettled: settled,
  });
  const reject = useMutation({
    mutationFn: (faceId: number) => request(api.POST('/api/v1/faces/{faceId}/reject', { params: { path: { faceId } } })),
    onSettled: settled,
  });
  return { assign, reject };
}

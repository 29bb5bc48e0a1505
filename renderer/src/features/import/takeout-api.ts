/**
 * The Google Takeout calls of the Import page: the parts already in a repository (listTakeoutArchives), what a set
 * of parts would bring (previewTakeoutImport), the import of them as a run (startTakeoutImport), and the member's
 * unfinished uploads (listTakeoutUploads; Discard is cancelTakeoutUpload). Uploading parts from this device is
 * takeout-upload.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError, request } from '../../api/problem';
import type { components } from '../../api/schema';
import { importKeys } from './import-api';

export type TakeoutArchiveSet = components['schemas']['TakeoutArchiveSet'];
export type TakeoutPreview = components['schemas']['TakeoutPreview'];
export type UnfinishedUpload = components['schemas']['TakeoutUpload'];

export const takeoutKeys = {
  archives: (repositoryId: string) => ['cloud-import', 'takeout', 'archives', repositoryId] as const,
  allUnfinished: ['cloud-import', 'takeout', 'unfinished'] as const,
  unfinished: (repositoryId: string) => ['cloud-import', 'takeout', 'unfinished', repositoryId] as const,
};

export function useTakeoutArchives(repositoryId: string | undefined) {
  return useQuery({
    queryKey: takeoutKeys.archives(repositoryId ?? ''),
    queryFn: ({ signal }) => request(api.GET('/api/v1/cloud/takeout/archives', { params: { query: { repository_id: repositoryId! } }, signal })),
    enabled: !!repositoryId,
  });
}

/**
 * The member's unfinished uploads into the repository (a reload, another day, another device). Read afresh each time
 * the card shows: another device may have gone on with one since.
 */
export function useUnfinishedTakeoutUploads(repositoryId: string | undefined) {
  return useQuery({
    queryKey: takeoutKeys.unfinished(repositoryId ?? ''),
    queryFn: ({ signal }) => request(api.GET('/api/v1/cloud/takeout/uploads', { params: { query: { repository_id: repositoryId! } }, signal })),
    enabled: !!repositoryId,
    staleTime: 0,
    select: (d) => d.uploads,
  });
}

/** Discards an unfinished upload: what arrived of it is removed on the server. */
export function useDiscardTakeoutUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upload: UnfinishedUpload) =>
      request(api.DELETE('/api/v1/cloud/takeout/uploads/{id}', { params: { path: { id: upload.upload_id } } })).catch((e: unknown) => {
        // Gone already (swept, or discarded on another device): what Discard asked for.
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }),
    onSettled: (_answer, _error, upload) => queryClient.invalidateQueries({ queryKey: takeoutKeys.unfinished(upload.repository_id) }),
  });
}

export function useTakeoutPreview() {
  return useMutation({
    mutationFn: ({ repositoryId, parts }: { repositoryId: string; parts: string[] }) =>
      request(api.POST('/api/v1/cloud/takeout/preview', { body: { repository_id: repositoryId, parts } })),
  });
}

export function useStartTakeout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ repositoryId, parts, untitledAlbums }: { repositoryId: string; parts: string[]; untitledAlbums: boolean }) =>
      request(api.POST('/api/v1/cloud/takeout/import', { body: { repository_id: repositoryId, parts, untitled_albums: untitledAlbums } })),
    onSuccess: ({ run }) => {
      queryClient.setQueryData(importKeys.run(run.id), run);
      void queryClient.invalidateQueries({ queryKey: importKeys.runs });
    },
  });
}

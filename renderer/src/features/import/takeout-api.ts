/**
 * The Google Takeout calls of the Import page: the parts already in a repository (listTakeoutArchives), what a set
 * of parts would bring (previewTakeoutImport) and the import of them as a run (startTakeoutImport). Uploading parts
 * from this device is takeout-upload.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { importKeys } from './import-api';

export type TakeoutArchiveSet = components['schemas']['TakeoutArchiveSet'];
export type TakeoutPreview = components['schemas']['TakeoutPreview'];

export const takeoutKeys = {
  archives: (repositoryId: string) => ['cloud-import', 'takeout', 'archives', repositoryId] as const,
};

export function useTakeoutArchives(repositoryId: string | undefined) {
  return useQuery({
    queryKey: takeoutKeys.archives(repositoryId ?? ''),
    queryFn: ({ signal }) => request(api.GET('/api/v1/cloud/takeout/archives', { params: { query: { repository_id: repositoryId! } }, signal })),
    enabled: !!repositoryId,
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

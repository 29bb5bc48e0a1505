/** Server state of the media tools card: ffmpeg/ffprobe found or not, and the files waiting for them. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';

export type MediaTools = components['schemas']['MediaTools'];

const key = ['admin', 'media-tools'] as const;

/**
 * Looked at again now and then (installing ffmpeg needs no restart to show here), and every two seconds while
 * files that waited are being processed.
 */
export function useMediaTools() {
  return useQuery({
    queryKey: key,
    queryFn: () => request(api.GET('/api/v1/media-tools')),
    refetchInterval: (q) => (q.state.data && q.state.data.reason === null && q.state.data.waiting_assets > 0 ? 2_000 : 15_000),
  });
}

/** Look for the tools again; when both are found the waiting files are queued. */
export function useRecheckMediaTools() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.POST('/api/v1/media-tools/recheck')),
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
  });
}

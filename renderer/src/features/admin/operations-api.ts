/** Server state of the operations pages: repositories with their scans, queues and failed jobs. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components, paths } from '../../api/schema';

export type Repository = components['schemas']['Repository'];
export type RepositoryScan = components['schemas']['RepositoryScan'];
export type QueueSummary = components['schemas']['QueueSummary'];
export type Job = components['schemas']['Job'];
export type JobState = components['schemas']['JobState'];
export type NewRepository = NonNullable<paths['/api/v1/repositories']['post']['requestBody']>['content']['application/json'];

export const opsKeys = {
  repositories: ['admin', 'repositories'] as const,
  latestScan: (id: string) => ['admin', 'repositories', id, 'latest-scan'] as const,
  queues: ['admin', 'queues'] as const,
  jobs: (state: JobState) => ['admin', 'jobs', state] as const,
};

/** How often the pages look again while something is happening, and otherwise. */
const BUSY_MS = 1_500;
const IDLE_MS = 15_000;
const QUEUE_MS = 3_000;

export const scanInProgress = (s: RepositoryScan | null | undefined) => s?.status === 'queued' || s?.status === 'running';

export function useRepositories() {
  return useQuery({
    queryKey: opsKeys.repositories,
    queryFn: () => request(api.GET('/api/v1/repositories')),
    refetchInterval: (q) => (q.state.data?.repositories.some((r) => r.activity === 'scanning') ? BUSY_MS : IDLE_MS),
  });
}

export function useLatestScan(repositoryId: string, repositoryScanning: boolean) {
  return useQuery({
    queryKey: opsKeys.latestScan(repositoryId),
    queryFn: () => request(api.GET('/api/v1/repositories/{id}/scans/latest', { params: { path: { id: repositoryId } } })),
    refetchInterval: (q) => (repositoryScanning || scanInProgress(q.state.data?.scan) ? BUSY_MS : IDLE_MS),
  });
}

export function useScanRepository() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (repositoryId: string) => request(api.POST('/api/v1/repositories/{id}/scans', { params: { path: { id: repositoryId } }, body: {} })),
    onSuccess: (answer, repositoryId) => {
      queryClient.setQueryData(opsKeys.latestScan(repositoryId), { scan: answer.scan });
      void queryClient.invalidateQueries({ queryKey: opsKeys.repositories });
    },
  });
}

export function useCreateRepository() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewRepository) => request(api.POST('/api/v1/repositories', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: opsKeys.repositories }),
  });
}

export function useQueueSummaries() {
  return useQuery({
    queryKey: opsKeys.queues,
    queryFn: () => request(api.GET('/api/v1/queues/summaries', { params: { query: { error_limit: 5 } } })),
    refetchInterval: QUEUE_MS,
  });
}

export function useFailedJobs(state: JobState) {
  return useQuery({
    queryKey: opsKeys.jobs(state),
    queryFn: () => request(api.GET('/api/v1/jobs', { params: { query: { state, limit: 50, include_count: 'true' } } })),
    refetchInterval: QUEUE_MS,
  });
}

export function useReprocessAssetOfJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assetId: string) => request(api.POST('/api/v1/assets/{id}/reprocess', { params: { path: { id: assetId } }, body: {} })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'jobs'] });
      void queryClient.invalidateQueries({ queryKey: opsKeys.queues });
    },
  });
}

/** The asset a job works on, when its arguments name one (assets.process-asset and the like). */
export function assetIdOf(job: Pick<Job, 'args'>): string | null {
  const args = job.args as { asset_id?: unknown } | null;
  return args && typeof args.asset_id === 'string' ? args.asset_id : null;
}

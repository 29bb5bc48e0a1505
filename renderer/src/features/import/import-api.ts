/**
 * The calls of the Import page (cloud import): providers and their forms, a member's connected accounts, folders at
 * the provider, and import runs with their counters and report. Queries and mutations over the typed client; a run
 * that is queued or running is read again every second until it ends.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError, request, toApiError } from '../../api/problem';
import type { components } from '../../api/schema';

export type CloudProvider = components['schemas']['CloudProvider'];
export type FieldDescriptor = components['schemas']['CloudFieldDescriptor'];
export type CloudCredential = components['schemas']['CloudCredential'];
export type CloudChallenge = NonNullable<components['schemas']['CloudChallenge']>;
export type CredentialAnswer = components['schemas']['CloudCredentialAnswer'];
export type ImportRun = components['schemas']['ImportRun'];
export type ImportRunFile = components['schemas']['ImportRunFile'];
export type Repository = components['schemas']['Repository'];
export type RunStatus = ImportRun['status'];

export const importKeys = {
  all: ['cloud-import'] as const,
  providers: ['cloud-import', 'providers'] as const,
  credentials: ['cloud-import', 'credentials'] as const,
  folders: (credentialId: string, folder: string) => ['cloud-import', 'folders', credentialId, folder] as const,
  repositories: ['cloud-import', 'repositories'] as const,
  runs: ['cloud-import', 'runs'] as const,
  run: (id: string) => ['cloud-import', 'run', id] as const,
  files: (id: string, offset: number, listed: number) => ['cloud-import', 'run', id, 'files', offset, listed] as const,
};

/** How often a run that is under way is read again. */
export const RUN_POLL_MS = 1000;

export const isActive = (status: RunStatus) => status === 'queued' || status === 'running';
export const isResumable = (status: RunStatus) => status === 'cancelled' || status === 'failed' || status === 'interrupted';

export function useProviders() {
  return useQuery({ queryKey: importKeys.providers, queryFn: () => request(api.GET('/api/v1/cloud/providers')), staleTime: 5 * 60_000 });
}

export function useCredentials() {
  return useQuery({ queryKey: importKeys.credentials, queryFn: () => request(api.GET('/api/v1/cloud/credentials')) });
}

const refreshCredentials = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: importKeys.credentials });

export function useCreateCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CloudCredentialCreate']) => request(api.POST('/api/v1/cloud/credentials', { body })),
    onSuccess: () => refreshCredentials(queryClient),
  });
}

export function useVerifyChallenge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, inputs }: { id: string; inputs: Record<string, string> }) =>
      request(api.POST('/api/v1/cloud/credentials/{id}/auth-challenge', { params: { path: { id } }, body: { inputs } })),
    onSettled: () => refreshCredentials(queryClient),
  });
}

export function useReconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, inputs }: { id: string; inputs?: Record<string, string> }) =>
      request(api.POST('/api/v1/cloud/credentials/{id}/reconnect', { params: { path: { id } }, body: inputs ? { inputs } : {} })),
    // A refusal marks the account as needing attention on the server: the list shows it either way.
    onSettled: () => refreshCredentials(queryClient),
  });
}

export function useDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request(api.POST('/api/v1/cloud/credentials/{id}/disconnect', { params: { path: { id } } })),
    // Its running imports are cancelled with it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: importKeys.all }),
  });
}

export function useRemoveCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request(api.DELETE('/api/v1/cloud/credentials/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: importKeys.all }),
  });
}

export function useFolders(credentialId: string, folder: string) {
  return useQuery({
    queryKey: importKeys.folders(credentialId, folder),
    queryFn: ({ signal }) =>
      request(api.GET('/api/v1/cloud/credentials/{id}/folders', { params: { path: { id: credentialId }, query: { folder } }, signal })),
    staleTime: 30_000,
    retry: false,
  });
}

/**
 * The repositories a member may import into: those that can be reached now, the primary first (the server's order).
 * The same list every member gets for choosing a scope; uploads go to the primary unless told otherwise.
 */
export function useImportRepositories() {
  return useQuery({
    queryKey: importKeys.repositories,
    queryFn: async () => (await request(api.GET('/api/v1/repositories'))).repositories.filter((r) => r.reachability === 'active'),
  });
}

/** Binds the account's folder (or other scope) to a repository and starts an import of it. */
export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ repositoryId, credentialId, scope }: { repositoryId: string; credentialId: string; scope: Record<string, string> }) =>
      request(api.POST('/api/v1/repositories/{id}/cloud/sources', { params: { path: { id: repositoryId } }, body: { credential_id: credentialId, remote_scope: scope } })),
    onSuccess: ({ run }) => {
      queryClient.setQueryData(importKeys.run(run.id), run);
      void queryClient.invalidateQueries({ queryKey: importKeys.runs });
    },
  });
}

export function useRun(id: string) {
  return useQuery({
    queryKey: importKeys.run(id),
    queryFn: ({ signal }) => request(api.GET('/api/v1/cloud/import-runs/{id}', { params: { path: { id } }, signal })),
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) ? RUN_POLL_MS : false),
    // Counters keep moving while the tab is in the background; they are read again on return.
    refetchIntervalInBackground: false,
  });
}

/** The newest runs; read again every few seconds while one of them is under way. */
export function useRecentRuns(limit = 10) {
  return useQuery({
    queryKey: importKeys.runs,
    queryFn: () => request(api.GET('/api/v1/cloud/import-runs', { params: { query: { limit } } })),
    refetchInterval: (q) => (q.state.data?.runs.some((r) => isActive(r.status)) ? 3 * RUN_POLL_MS : false),
  });
}

export const REPORT_PAGE_SIZE = 25;

/** A page of the run's report; `listed` (its skipped and failed files so far) is read again when it grows. */
export function useRunFiles(id: string, offset: number, listed: number) {
  return useQuery({
    queryKey: importKeys.files(id, offset, listed),
    queryFn: ({ signal }) =>
      request(api.GET('/api/v1/cloud/import-runs/{id}/files', { params: { path: { id }, query: { limit: REPORT_PAGE_SIZE, offset } }, signal })),
    enabled: listed > 0,
    placeholderData: (previous) => previous,
  });
}

function useRunAction(action: 'cancel' | 'resume') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<ImportRun> =>
      action === 'cancel'
        ? request(api.POST('/api/v1/cloud/import-runs/{id}/cancel', { params: { path: { id } } }))
        : (await request(api.POST('/api/v1/cloud/import-runs/{id}/resume', { params: { path: { id } } }))).run,
    onSuccess: (run) => {
      queryClient.setQueryData(importKeys.run(run.id), run);
      void queryClient.invalidateQueries({ queryKey: importKeys.runs });
    },
  });
}

export const useCancelRun = () => useRunAction('cancel');
export const useResumeRun = () => useRunAction('resume');

/**
 * Saves the run's report as a CSV file. The request needs the bearer token (the client's, which renews it), so the
 * answer is fetched as a blob and handed to the browser as a download.
 */
export function useDownloadReport() {
  return useMutation({
    mutationFn: async (id: string) => {
      const result = await api.GET('/api/v1/cloud/import-runs/{id}/report.csv', { params: { path: { id } }, parseAs: 'blob' }).catch(() => {
        throw new ApiError(0, 'network', 'Hearth could not be reached. Check the connection and try again.');
      });
      if (!result.response.ok) throw toApiError(result.error, result.response);
      const name = /filename="?([^";]+)"?/.exec(result.response.headers.get('Content-Disposition') ?? '')?.[1] ?? `import-report-${id}.csv`;
      const url = URL.createObjectURL(result.data as Blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return name;
    },
  });
}

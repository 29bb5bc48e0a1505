/** Server state of the Models page: the registry's models, the tasks' availability, indexing progress. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';

export type Model = components['schemas']['Model'];
export type ModelTask = Model['task'];
export type TaskState = components['schemas']['MlTaskState'];
type Capability = Model['capabilities'][number];

export const modelKeys = {
  models: ['admin', 'models'] as const,
  capabilities: ['capabilities'] as const,
  indexing: ['admin', 'indexing-stats'] as const,
};

/** How often the page looks again while a download or indexing runs, and otherwise. */
const BUSY_MS = 1_000;
const IDLE_MS = 15_000;

const busy = (models: readonly Model[] | undefined) => !!models?.some((m) => m.installing || m.state === 'downloading');

export function useModels() {
  return useQuery({
    queryKey: modelKeys.models,
    queryFn: () => request(api.GET('/api/v1/models')),
    refetchInterval: (q) => (busy(q.state.data?.models) ? BUSY_MS : IDLE_MS),
  });
}

/** getCapabilities, looked at as often as the models are (a finished install turns a task ready). */
export function useCapabilities(modelsBusy: boolean) {
  return useQuery({
    queryKey: modelKeys.capabilities,
    queryFn: () => request(api.GET('/api/v1/capabilities')),
    refetchInterval: modelsBusy ? BUSY_MS : IDLE_MS,
  });
}

export function useIndexingStats() {
  return useQuery({
    queryKey: modelKeys.indexing,
    queryFn: () => request(api.GET('/api/v1/assets/indexing/stats')),
    refetchInterval: (q) => (Object.values(q.state.data?.tasks ?? {}).some((t) => t.queued_jobs > 0) ? 2_000 : IDLE_MS),
  });
}

export function useInstallModels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { task: ModelTask } | { model_id: string }) => request(api.POST('/api/v1/models/install', { body })),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: modelKeys.models });
      void queryClient.invalidateQueries({ queryKey: modelKeys.capabilities });
    },
  });
}

export function useCancelInstall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request(api.DELETE('/api/v1/models/{id}/install', { params: { path: { id } } })),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: modelKeys.models });
      void queryClient.invalidateQueries({ queryKey: modelKeys.capabilities });
    },
  });
}

/** The Models page's tasks: what each is called, which capabilities and which index tasks it stands for. */
export const TASKS: { task: ModelTask; title: string; what: string; capabilities: Capability[]; indexTasks: ('semantic' | 'video_semantic' | 'ocr' | 'face' | 'bioclip')[] }[] = [
  {
    task: 'semantic',
    title: 'Search by meaning',
    what: 'Finds photos by what is in them ("beach at sunset"), similar photos, and tags documents and screenshots (CLIP).',
    capabilities: ['semantic_image_embed', 'semantic_text_embed', 'classify'],
    indexTasks: ['semantic', 'video_semantic'],
  },
  { task: 'ocr', title: 'Text in photos', what: 'Reads signs, receipts and documents so their words can be searched (PP-OCRv4).', capabilities: ['ocr'], indexTasks: ['ocr'] },
  { task: 'faces', title: 'Faces', what: 'Finds faces, so photos of the same person can be grouped.', capabilities: ['face_recognition'], indexTasks: ['face'] },
  { task: 'species', title: 'Plants and animals', what: 'Names the species in nature photos.', capabilities: ['bioclip_classify'], indexTasks: ['bioclip'] },
];

export type TaskStatus =
  | { kind: 'ready' }
  | { kind: 'disabled'; detail: string | null }
  | { kind: 'downloading'; percent: number }
  | { kind: 'failed'; detail: string | null }
  | { kind: 'not_installed'; detail: string | null };

const ORDER: TaskStatus['kind'][] = ['failed', 'downloading', 'not_installed', 'disabled', 'ready'];

/** One status for a task of the page from its capabilities (the worst of them; percent of the downloading ones). */
export function taskStatus(states: TaskState[]): TaskStatus {
  const kinds = states.map((s) => (s.available ? 'ready' : (s.reason ?? 'not_installed')) as TaskStatus['kind']);
  const kind = ORDER.find((k) => kinds.includes(k)) ?? 'ready';
  const first = states[kinds.indexOf(kind)];
  if (kind === 'ready') return { kind };
  if (kind === 'downloading') {
    const downloading = states.filter((s) => s.reason === 'downloading');
    return { kind, percent: Math.min(...downloading.map((s) => s.progress_percent ?? 0)) };
  }
  return { kind, detail: first?.detail ?? null };
}

/** The manual way (a machine that cannot reach the source): one file of a model uploaded from the page. */
export function useUploadModelFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, index, file }: { id: string; index: number; file: File }) =>
      request(
        api.PUT('/api/v1/models/{id}/files/{index}', {
          params: { path: { id, index } },
          // The file itself is the body, streamed as it is read (no JSON, no form).
          body: file as unknown as string,
          bodySerializer: (b: unknown) => b as BodyInit,
          headers: { 'content-type': 'application/octet-stream' },
        }),
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: modelKeys.models });
      void queryClient.invalidateQueries({ queryKey: modelKeys.capabilities });
    },
  });
}

/** "Check again": the server verifies the files put in the models folder by hand. */
export function useVerifyModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request(api.POST('/api/v1/models/{id}/verify', { params: { path: { id } } })),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: modelKeys.models });
      void queryClient.invalidateQueries({ queryKey: modelKeys.capabilities });
    },
  });
}

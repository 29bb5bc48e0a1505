/** The public shapes of a repository and of a repository scan. */
import { z } from '@hono/zod-openapi';
import { decodeDetail } from './reachability.ts';
import type { RepositoryRow, ScanJobInfo, ScanRow } from './repositories.store.ts';

/** `primary`: the one repository in the data folder's storage root; `regular`: any other folder. */
export const REPOSITORY_ROLES = ['primary', 'regular'] as const;

export const RepositorySchema = z
  .object({
    id: z.uuid().openapi({ description: "The repository's id: the `id` of its `.hearth-repo` marker, stable across moves and catalog rebuilds." }),
    name: z.string(),
    path: z.string().optional().openapi({ description: 'Absolute folder path on the server. Present only for administrators.' }),
    is_primary: z.boolean(),
    root_id: z.uuid().nullable().openapi({
      description:
        "The storage root the repository lives in: the id of the data folder's storage root (its `.hearth-root` marker) for repositories inside it, such as the primary one; null for folders registered elsewhere on the machine.",
    }),
    activity: z.enum(['idle', 'scanning']).openapi({ description: '`scanning` while a scan of the repository runs.' }),
    reachability: z.enum(['active', 'offline', 'error']).openapi({
      description: '`active`: readable, watched and scanned. `offline`: the folder is gone (unplugged disk, unmounted share). `error`: the folder is there but unreadable or its marker is missing or changed.',
    }),
    role: z.enum(REPOSITORY_ROLES),
    pause_reason: z.enum(['offline', 'permission_denied', 'marker_missing', 'marker_invalid', 'marker_mismatch']).nullable().openapi({
      description: 'Why watching and scanning are paused; null while the repository is active.',
    }),
    status_detail: z.string().nullable().openapi({ description: 'What is wrong, in words (never a path); null while active.' }),
    created_at: z.string(),
  })
  .openapi('Repository');
export type RepositoryView = z.infer<typeof RepositorySchema>;

export const RepositoryScanSchema = z
  .object({
    scan_id: z.uuid(),
    repository_id: z.uuid(),
    mode: z.enum(['periodic', 'manual', 'startup']),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    complete_walk: z.boolean().openapi({
      description: 'True when every folder of the repository was read. Only a complete walk marks files missing: after an incomplete one nothing is removed from the catalog.',
    }),
    files_seen: z.number().int().openapi({ description: 'Files found by the walk (hidden files, `.hearth/` and partial downloads excluded).' }),
    added: z.number().int().openapi({ description: 'New assets.' }),
    updated: z.number().int().openapi({ description: 'Assets whose file changed (or came back).' }),
    moved: z.number().int().openapi({ description: 'Files found at a new path with the content of a missing asset: the asset kept its id.' }),
    deleted: z.number().int().openapi({ description: 'Assets whose file is gone, moved to the trash.' }),
    skipped: z.number().int().openapi({ description: 'Files unchanged since they were indexed, or not media.' }),
    failed: z.number().int().openapi({ description: 'Files that could not be indexed (see `error`).' }),
    error: z.string().nullable().openapi({
      description:
        'What went wrong or was left undone. A file is named by its repository-relative path to its owner and as `asset <id>` to anyone else; unreadable places and files not catalogued yet are named to administrators only.',
    }),
    progress: z.number().nullable().openapi({ description: '0..1 while queued or running; null once finished.' }),
    progress_message: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi('RepositoryScan');
export type RepositoryScanView = z.infer<typeof RepositoryScanSchema>;

const iso = (ms: number) => new Date(ms).toISOString();

export function toRepositoryView(r: RepositoryRow, o: { isAdmin: boolean; rootId: string | null; scanning: boolean }): RepositoryView {
  const { reason, message } = decodeDetail(r.status_detail);
  return {
    id: r.repository_id,
    name: r.name,
    ...(o.isAdmin ? { path: r.path } : {}),
    is_primary: r.role === 'primary',
    root_id: o.rootId,
    activity: o.scanning ? 'scanning' : 'idle',
    reachability: r.status,
    role: r.role,
    pause_reason: r.status === 'active' ? null : (reason ?? (r.status === 'offline' ? 'offline' : 'marker_invalid')),
    status_detail: r.status === 'active' ? null : message,
    created_at: iso(r.created_at),
  };
}

export function toScanView(s: ScanRow, job: ScanJobInfo | undefined): RepositoryScanView {
  const pending = s.status === 'queued' || s.status === 'running';
  return {
    scan_id: s.scan_id,
    repository_id: s.repository_id,
    mode: s.mode,
    status: s.status,
    complete_walk: s.complete_walk === 1,
    files_seen: s.files_seen,
    added: s.added,
    updated: s.updated,
    moved: s.moved,
    deleted: s.deleted,
    skipped: s.skipped,
    failed: s.failed,
    error: s.error,
    progress: pending ? (s.status === 'queued' ? 0 : (job?.progress ?? 0)) : null,
    progress_message: pending ? (job?.progress_message ?? null) : null,
    created_at: iso(s.created_at),
    started_at: s.started_at === null ? null : iso(s.started_at),
    finished_at: s.finished_at === null ? null : iso(s.finished_at),
  };
}

/** The public shapes of cloud import (contract: Cloud resources), and the rows → shapes mapping. */
import { z } from '@hono/zod-openapi';
import type { Challenge } from '../../adapters/cloud/provider.ts';
import type { CredentialRow, SourceRow } from './credentials.store.ts';
import type { StoredProblem } from './import-problems.ts';
import type { RunFileRow, RunRow } from './runs.store.ts';
import type { TakeoutUploadRow } from './takeout-uploads.store.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
const StringMap = z.record(z.string(), z.string());

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    retryable: z.boolean(),
  })
  .openapi('ImportProblem');

export const FieldDescriptorSchema = z
  .object({
    name: z.string(),
    label: z.string(),
    type: z.enum(['text', 'email', 'password', 'url', 'select', 'checkbox', 'code']),
    required: z.boolean(),
    autocomplete: z.string().optional(),
    help_text: z.string().optional(),
    options: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
  })
  .openapi('CloudFieldDescriptor');

export const ProviderSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    status: z.enum(['enabled', 'disabled']),
    security_note: z.string(),
    form_fields: z.array(FieldDescriptorSchema),
    challenge_fields: z.array(FieldDescriptorSchema),
    scope_fields: z.array(FieldDescriptorSchema).openapi({ description: 'What to import (WebDAV: the remote folder): the fields of `remote_scope`. Extension.' }),
  })
  .openapi('CloudProvider');

export const ChallengeSchema = z
  .object({
    type: z.enum(['verification_code']),
    title: z.string(),
    description: z.string(),
    params: StringMap,
    fields: z.array(FieldDescriptorSchema),
  })
  .openapi('CloudChallenge');

export const CredentialSchema = z
  .object({
    id: z.string(),
    owner_id: z.number().int(),
    provider: z.string(),
    provider_title: z.string(),
    display_name: z.string(),
    status: z.enum(['connected', 'pending_challenge', 'disconnected', 'error']).openapi({
      description: '`connected`: imports can run. `pending_challenge`: waiting for a verification code. `disconnected`: paused by its owner (reconnect to import again). `error`: the provider refused the stored session or the password (see `problem`; reconnect).',
    }),
    public_config: StringMap.openapi({ description: 'What is safe to show (server address, user name, masked account). Secrets are never returned.' }),
    problem: ProblemSchema.nullable().openapi({ description: 'Why it is `error` or `disconnected`. Extension.' }),
    session_expires_at: z.string().nullable().openapi({ description: 'When the provider session is expected to end (iCloud: about 90 days). Extension.' }),
    session_expires_soon: z.boolean().openapi({ description: 'The session ends within 14 days: reconnect ahead. Extension.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('CloudCredential');

export const AuthStatusSchema = z.enum(['connected', 'challenge_required']).openapi({ description: '`challenge_required`: answer `challenge` with verifyCloudCredentialChallenge.' });

export const RunSchema = z
  .object({
    id: z.string(),
    credential_id: z.string().nullable(),
    repository_id: z.string(),
    owner_id: z.number().int(),
    provider: z.string(),
    source_id: z.string().nullable().openapi({ description: 'The bound source it imports. Extension.' }),
    remote_scope: StringMap.openapi({ description: 'What it imports. Extension.' }),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled', 'interrupted']).openapi({
      description:
        '`queued` → `running` → `completed` (every file handled; some may be skipped or failed: see the counters and the report) | `failed` (the run could not go on: `problem` says why) | `cancelled` (by cancelImportRun). A run a stop of the server left `queued` or `running` is `interrupted`. `cancelled`, `failed` and `interrupted` runs can be resumed: they continue where they were.',
    }),
    total_seen: z.number().int().openapi({ description: 'Files the source listed so far.' }),
    downloaded_count: z.number().int(),
    imported_count: z.number().int().openapi({ description: 'Files that became photos or videos of the library.' }),
    unchanged_count: z.number().int().openapi({ description: 'Files an earlier run imported and that did not change since (not fetched again). Extension.' }),
    skipped_count: z.number().int().openapi({ description: 'Files not imported for a reason (not a photo or video, already in the library, a name that cannot be stored): listed in the report.' }),
    failed_count: z.number().int().openapi({ description: 'Files that could not be fetched or stored: listed in the report; resume to try them again.' }),
    downloaded_bytes: z.number().int().openapi({ description: 'Extension.' }),
    problem: ProblemSchema.nullable(),
    summary: z.string().openapi({ description: 'One sentence a person reads ("Nothing new: 120 files were imported before."). Extension.' }),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    updated_at: z.string(),
  })
  .openapi('ImportRun');

export const RunFileSchema = z
  .object({
    remote_id: z.string(),
    name: z.string(),
    folder: z.string(),
    outcome: z.enum(['imported', 'unchanged', 'skipped', 'failed']),
    reason_code: z.string().nullable(),
    reason: z.string().nullable(),
    asset_id: z.string().nullable(),
    size: z.number().int().nullable(),
    at: z.string(),
  })
  .openapi('ImportRunFile');

const SourceStatusFields = {
  credential: CredentialSchema.nullable(),
  enabled: z.boolean(),
  last_import_run_id: z.string().nullable(),
  latest_run: RunSchema.nullable(),
  owner_id: z.number().int().nullable(),
  provider: z.string().nullable(),
};

export const SourceStatusSchema = z
  .object({ ...SourceStatusFields, source_id: z.string().openapi({ description: 'Extension: name it in startRepositoryCloudImport.' }), remote_scope: StringMap })
  .openapi('RepositoryCloudSource');

export const RepositoryCloudStatusSchema = z
  .object({ ...SourceStatusFields, sources: z.array(SourceStatusSchema) })
  .openapi({ description: "The repository's import sources you may see (yours; an administrator's: everyone's). The top-level fields repeat the first of them (all null/false when there is none)." })
  .openapi('RepositoryCloudStatus');

export type Credential = z.infer<typeof CredentialSchema>;
export type Run = z.infer<typeof RunSchema>;

const EXPIRY_NOTICE_MS = 14 * 24 * 3600_000;

export function toCredential(row: CredentialRow, providerTitle: string, now: number): Credential {
  return {
    id: row.credential_id,
    owner_id: row.owner_id,
    provider: row.provider,
    provider_title: providerTitle,
    display_name: row.display_name,
    status: row.status,
    public_config: JSON.parse(row.public_config) as Record<string, string>,
    problem: row.problem ? (JSON.parse(row.problem) as StoredProblem) : null,
    session_expires_at: isoOrNull(row.session_expires_at),
    session_expires_soon: row.session_expires_at !== null && row.session_expires_at - now < EXPIRY_NOTICE_MS,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toChallenge(c: Challenge): z.infer<typeof ChallengeSchema> {
  return { type: c.type, title: c.title, description: c.description, params: c.params, fields: c.fields };
}

/** One sentence on where a run stands, in the words of its counters. */
export function runSummary(r: RunRow): string {
  const n = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
  const parts: string[] = [];
  if (r.imported_count) parts.push(`${n(r.imported_count, 'file')} imported`);
  if (r.skipped_count) parts.push(`${r.skipped_count} skipped`);
  if (r.failed_count) parts.push(`${r.failed_count} failed`);
  switch (r.status) {
    case 'queued':
      return 'Waiting to start.';
    case 'running':
      return `Looked at ${n(r.total_seen, 'file')} so far${parts.length ? `: ${parts.join(', ')}` : ''}.`;
    case 'completed': {
      const report = r.skipped_count || r.failed_count ? ` ${[r.skipped_count ? `${r.skipped_count} skipped` : '', r.failed_count ? `${r.failed_count} failed` : ''].filter(Boolean).join(', ')}: see the report.` : '';
      if (!r.imported_count) {
        const before = r.unchanged_count ? `Nothing new: ${n(r.unchanged_count, 'file')} ${r.unchanged_count === 1 ? 'was' : 'were'} imported before.` : r.total_seen ? 'Nothing imported.' : 'Nothing to import: the source holds no files.';
        return `${before}${report}`;
      }
      return `Done: ${n(r.imported_count, 'file')} imported${r.unchanged_count ? `, ${r.unchanged_count} unchanged since the last import` : ''}.${report}`;
    }
    case 'failed':
      return `Stopped by a problem after ${n(r.total_seen, 'file')}${parts.length ? ` (${parts.join(', ')})` : ''}. Resume to go on.`;
    case 'cancelled':
      return `Cancelled after ${n(r.total_seen, 'file')}${parts.length ? ` (${parts.join(', ')})` : ''}. Resume to go on where it stopped.`;
    case 'interrupted':
      return `Interrupted by a stop of the server after ${n(r.total_seen, 'file')}. Resume to go on where it stopped.`;
  }
}

export function toRun(r: RunRow): Run {
  return {
    id: r.run_id,
    credential_id: r.credential_id,
    repository_id: r.repository_id,
    owner_id: r.owner_id,
    provider: r.provider,
    source_id: r.source_id,
    remote_scope: JSON.parse(r.remote_scope) as Record<string, string>,
    status: r.status,
    total_seen: r.total_seen,
    downloaded_count: r.downloaded_count,
    imported_count: r.imported_count,
    unchanged_count: r.unchanged_count,
    skipped_count: r.skipped_count,
    failed_count: r.failed_count,
    downloaded_bytes: r.downloaded_bytes,
    problem: r.problem ? (JSON.parse(r.problem) as StoredProblem) : null,
    summary: runSummary(r),
    created_at: iso(r.created_at),
    started_at: isoOrNull(r.started_at),
    finished_at: isoOrNull(r.finished_at),
    updated_at: iso(r.updated_at),
  };
}

export function toRunFile(f: RunFileRow): z.infer<typeof RunFileSchema> {
  return { remote_id: f.remote_id, name: f.name, folder: f.folder, outcome: f.outcome, reason_code: f.reason_code, reason: f.reason, asset_id: f.asset_id, size: f.size, at: iso(f.at) };
}

export function scopeOf(s: SourceRow): Record<string, string> {
  return JSON.parse(s.remote_scope) as Record<string, string>;
}

export const TakeoutArchiveSetSchema = z
  .object({
    name: z.string().openapi({ description: 'The export’s name (`takeout-20240101T000000Z`).' }),
    parts: z.array(z.object({ path: z.string(), size: z.number().int(), modified_at: z.string() })),
    total_size: z.number().int(),
  })
  .openapi('TakeoutArchiveSet');

export const TakeoutPreviewSchema = z
  .object({
    photos: z.number().int(),
    videos: z.number().int(),
    albums: z.array(z.object({ name: z.string(), count: z.number().int() })),
    date_range: z.object({ from: z.string(), to: z.string() }).nullable(),
    without_sidecar: z.object({ count: z.number().int(), examples: z.array(z.string()) }).openapi({ description: 'Media with no JSON sidecar: imported with their own metadata.' }),
    problems: z.array(z.object({ where: z.string(), reason: z.string() })),
    parts: z.array(z.object({ name: z.string(), size: z.number().int(), entries: z.number().int() })),
  })
  .openapi('TakeoutPreview');

export const TakeoutUploadSchema = z
  .object({
    upload_id: z.string(),
    repository_id: z.string(),
    filename: z.string(),
    size: z.number().int(),
    received: z.number().int().openapi({ description: 'Bytes on the server: the next chunk starts here.' }),
    status: z.enum(['uploading', 'complete']).openapi({ description: '`complete`: the part is in the repository at `part_path`.' }),
    part_path: z.string().nullable().openapi({ description: 'Where the whole part is, inside the repository (name it in previewTakeoutImport and startTakeoutImport).' }),
    created_at: z.string(),
    updated_at: z.string().openapi({ description: 'The last activity: created, or a chunk received.' }),
    expires_at: z.string().nullable().openapi({
      description: 'When an unfinished upload is removed, with what arrived of it, if no chunk comes before (24 hours after `updated_at`; the clean-up runs at the first occasion after it). Null once complete: the part stays in the repository.',
    }),
  })
  .openapi('TakeoutUpload');

export type TakeoutUpload = z.infer<typeof TakeoutUploadSchema>;

/** How long an upload may stay idle before the sweep removes it (takeout-uploads.service.ts decides; here for `expires_at`). */
export const TAKEOUT_UPLOAD_IDLE_MS = 24 * 3600_000;

export function toTakeoutUpload(u: TakeoutUploadRow): TakeoutUpload {
  return {
    upload_id: u.upload_id,
    repository_id: u.repository_id,
    filename: u.filename,
    size: u.size,
    received: u.received,
    status: u.status,
    part_path: u.part_path,
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    expires_at: u.status === 'uploading' ? iso(u.updated_at + TAKEOUT_UPLOAD_IDLE_MS) : null,
  };
}

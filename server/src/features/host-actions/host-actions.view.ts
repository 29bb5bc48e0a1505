/**
 * The public shapes of a host action (the contract's fields, plus `version`, `code` and `cancel_reason`),
 * and of the host channel's view of one (plus `requester`). No shape holds a filesystem path.
 */
import { z } from '@hono/zod-openapi';
import { REPOSITORY_ROLES } from '../repositories/index.ts';
import type { HostActionRecord } from './host-actions.store.ts';

export const HOST_ACTION_STATUSES = ['pending', 'presented', 'running', 'needs_decision', 'completed', 'failed', 'cancelled', 'expired'] as const;
/** What a conflict can be settled with (decideHostActionRecovery); each conflict lists the ones it allows. */
export const RESOLUTIONS = ['relocate', 'add_separate', 'cancel'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const CONFLICT_TYPES = ['already_registered', 'moved_or_copied', 'inside_repository', 'contains_repository', 'risky_folder'] as const;
export type ConflictType = (typeof CONFLICT_TYPES)[number];
export const RISK_WARNINGS = ['removable_drive', 'system_folder', 'very_large_tree', 'original_still_present'] as const;
export type RiskWarning = (typeof RISK_WARNINGS)[number];
/** A member may ask for any repository but the primary one (there is exactly one, in the data folder). */
export const PURPOSES = REPOSITORY_ROLES.filter((r): r is Exclude<typeof r, 'primary'> => r !== 'primary');

export const ConflictSchema = z
  .object({
    type: z.enum(CONFLICT_TYPES).openapi({
      description: [
        '`already_registered`: the folder is a repository already (`repository_id`);',
        '`moved_or_copied`: its marker carries the id of a registered repository found elsewhere: the folder is that repository moved here, or a copy of it;',
        '`inside_repository` / `contains_repository`: it lies inside, or around, a registered repository (a file belongs to one repository only);',
        '`risky_folder`: no repository is in the way, but the folder is a system folder or a very large tree (see `risk_warnings`).',
      ].join(' '),
    }),
    repository_id: z.uuid().nullable().openapi({ description: 'The registered repository in the way; null for `risky_folder`.' }),
    root_id: z.uuid().nullable().openapi({ description: "That repository's storage root (as in the Repository resource); null when it has none." }),
    allowed_resolutions: z.array(z.enum(RESOLUTIONS)).openapi({
      description:
        '`relocate`: repoint the registered repository at this folder (it moved; its photos keep their ids). `add_separate`: register the folder as a new, independent repository (a copy gets a new identity in its marker). `cancel`: leave everything as it is.',
    }),
    risk_warnings: z.array(z.enum(RISK_WARNINGS)).openapi({
      description:
        '`removable_drive`: on a drive that may be unplugged (the repository then pauses); `system_folder`: a system folder or the home folder itself; `very_large_tree`: more files and folders than a photo folder usually holds; `original_still_present`: the registered repository is still at its old place (so this is likely a copy).',
    }),
  })
  .openapi('HostActionConflict');
export type HostActionConflict = z.infer<typeof ConflictSchema>;

export const HostActionProblemSchema = z
  .object({ code: z.string(), detail: z.string(), retryable: z.boolean() })
  .openapi('HostActionProblem', { description: 'Why the action failed (never a path).' });
export type HostActionProblem = z.infer<typeof HostActionProblemSchema>;

export const HostActionSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['open_repository']),
    status: z.enum(HOST_ACTION_STATUSES).openapi({ description: 'See the states in the description of createHostAction.' }),
    actor: z.object({ user_id: z.number().int(), username: z.string() }).openapi({ description: 'The member who asked.' }),
    name: z.string().openapi({ description: 'The name the repository gets.' }),
    purpose: z.enum(PURPOSES),
    code: z.string().openapi({
      description: 'Extension: a short confirmation code (6 digits). The asking device shows it and the home machine shows it beside the request, so the person there can tell it is this one.',
    }),
    version: z.number().int().openapi({ description: 'Extension: bumps on every change; send it as `expected_version` to act only on what you saw.' }),
    repository_id: z.uuid().nullable().openapi({ description: 'The repository made (or relocated) once completed.' }),
    root_id: z.uuid().nullable(),
    request_id: z.string().nullable().openapi({ description: 'The `request_id` of the last request that changed the action.' }),
    expected_version: z.number().int().nullable().openapi({ description: 'The `expected_version` that request carried.' }),
    expires_at: z.string().openapi({ description: 'A pending, presented or undecided action expires then (status `expired`).' }),
    created_at: z.string(),
    updated_at: z.string(),
    completed_at: z.string().nullable(),
    cancel_reason: z.enum(['member_cancelled', 'host_denied']).nullable().openapi({ description: 'Extension: who cancelled: the member, or the person at the home machine.' }),
    problem: HostActionProblemSchema.nullable(),
    result: z
      .object({
        name: z.string().nullable(),
        repository_id: z.uuid().nullable(),
        root_id: z.uuid().nullable(),
        conflict: ConflictSchema.nullable().openapi({ description: 'While `needs_decision`: what is in the way and the choices.' }),
      })
      .nullable(),
  })
  .openapi('HostAction');
export type HostActionView = z.infer<typeof HostActionSchema>;

/** The host channel's view: the action, and who asked (the person at the home machine reads it). */
export type HostActionForHost = HostActionView & { requester: { user_id: number; username: string; display_name: string } };

const iso = (ms: number) => new Date(ms).toISOString();

export function toHostActionView(r: HostActionRecord): HostActionView {
  const conflict = r.conflict ? (JSON.parse(r.conflict) as HostActionConflict) : null;
  const done = r.status === 'completed';
  return {
    id: r.action_id,
    kind: r.kind,
    status: r.status,
    actor: { user_id: r.owner_id, username: r.username },
    name: r.name,
    purpose: r.purpose as HostActionView['purpose'],
    code: r.code,
    version: r.version,
    repository_id: r.repository_id,
    root_id: r.root_id,
    request_id: r.request_id,
    expected_version: r.expected_version,
    expires_at: iso(r.expires_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    completed_at: r.completed_at === null ? null : iso(r.completed_at),
    cancel_reason: r.cancel_reason,
    problem: r.problem ? (JSON.parse(r.problem) as HostActionProblem) : null,
    result: done || conflict ? { name: done ? r.name : null, repository_id: done ? r.repository_id : null, root_id: done ? r.root_id : null, conflict } : null,
  };
}

export function toHostView(r: HostActionRecord): HostActionForHost {
  return { ...toHostActionView(r), requester: { user_id: r.owner_id, username: r.username, display_name: r.display_name } };
}

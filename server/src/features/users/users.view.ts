/** The public shape of a user account, and the permissions that follow from its role. */
import type { Access } from '../../platform/access/index.ts';
import { z } from '@hono/zod-openapi';
import type { Role } from '../../platform/http/context.ts';
import type { UserRow, UsersStore } from './users.store.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { singleLine } from '../../platform/http/text.ts';

/**
 * Permissions by role. Administrators run the installation (users, settings, repositories, jobs) but
 * do not see other members' photos: a household's pictures stay private to whoever owns them unless
 * shared. Both roles manage their own library and profile.
 */
export const PERMISSIONS: Record<Role, string[]> = {
  admin: ['manage_users', 'manage_settings', 'manage_repositories', 'view_jobs', 'manage_own_assets', 'manage_own_profile'],
  user: ['manage_own_assets', 'manage_own_profile'],
};

export const UserSchema = z
  .object({
    user_id: z.number().int(),
    username: z.string(),
    display_name: z.string(),
    role: z.enum(['admin', 'user']),
    permissions: z.array(z.string()),
    is_active: z.boolean(),
    avatar_asset_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    last_login: z.string().nullable(),
  })
  .openapi('User');
export type User = z.infer<typeof UserSchema>;

const iso = (ms: number) => new Date(ms).toISOString();

export function toUser(r: UserRow): User {
  return {
    user_id: r.user_id,
    username: r.username,
    display_name: r.display_name,
    role: r.role,
    permissions: PERMISSIONS[r.role],
    is_active: r.is_active === 1,
    avatar_asset_id: r.avatar_asset_id,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    last_login: r.last_login_at ? iso(r.last_login_at) : null,
  };
}

/** Account names: 3–32 characters, a letter first, then letters, digits, dot, dash or underscore. */
export const Username = singleLine(
  z
    .string()
    .trim()
    .min(3, 'must be at least 3 characters')
    .max(32, 'must be at most 32 characters')
    .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, 'must start with a letter and use only letters, digits, dot, dash, underscore'),
);

/** Passwords: 10–256 characters; length is what makes a password strong, not symbol rules. */
export const NewPassword = z.string().min(10, 'must be at least 10 characters').max(256, 'must be at most 256 characters');

/**
 * 404 `asset_not_found` naming `body.avatar_asset_id` unless the asset is the account's own (and not in
 * the Trash): an avatar is chosen among one's own photos, and another member's asset must not be
 * told apart from one that does not exist.
 */
export function checkAvatar(access: Access, store: Pick<UsersStore, 'isInTrash'>, userId: number, assetId: string | null | undefined): void {
  if (!assetId) return;
  const [own] = access.permitted({ userId }, 'asset', [assetId], 'own');
  if (own !== undefined && !store.isInTrash(own)) return;
  throw new DomainError(404, 'asset_not_found', 'No such asset.', {
    errors: [{ field: 'body.avatar_asset_id', message: 'no such asset of this account', code: 'asset_not_found' }],
  });
}

export const DisplayName = singleLine(z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'));

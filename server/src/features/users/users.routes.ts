/** Administration of user accounts. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { pageParams } from '../../platform/http/pagination.ts';
import { DisplayName, NewPassword, UserSchema, Username } from './users.view.ts';

const TAG = 'Users and settings';
const IdParam = z.object({ id: z.coerce.number().int().positive().openapi({ param: { name: 'id', in: 'path' }, example: 2 }) });

export const listUsers = defineRoute('admin', {
  method: 'get',
  path: '/users',
  operationId: 'listUsers',
  summary: 'List accounts with their statistics',
  tags: [TAG],
  request: {
    query: z.object({
      ...pageParams({ max: 100, default: 20, noun: 'Users' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        users: z.array(
          UserSchema.extend({
            stats: z.object({
              active_sessions: z.number().int(),
              second_factors: z.array(z.enum(['totp', 'passkey'])).openapi({
                description: 'Beyond the contract: the second factors the account has (`totp`; `passkey` once passkeys exist), never their secrets. Empty: the password alone signs in.',
              }),
            }),
          }),
        ),
        limit: z.number().int(),
        offset: z.number().int(),
        total: z.number().int(),
      }),
    ),
  },
});

export const updateUser = defineRoute('admin', {
  method: 'patch',
  path: '/users/{id}',
  operationId: 'updateUser',
  summary: "Change an account's name, role, status or avatar",
  tags: [TAG],
  request: {
    params: IdParam,
    body: jsonBody(
      z.strictObject({
        username: Username.optional(),
        display_name: DisplayName.optional(),
        role: z.enum(['admin', 'user']).optional(),
        is_active: z.boolean().optional(),
        avatar_asset_id: z.uuid().nullable().optional().openapi({ description: 'One of the account\'s own assets (not in the Trash); anything else answers 404 `asset_not_found`. null clears it.' }),
      }),
    ),
  },
  responses: { 200: jsonResponse(UserSchema), ...errorResponses(404, 409) },
});

export const resetUserAccess = defineRoute('admin', {
  method: 'post',
  path: '/users/{id}/reset-access',
  operationId: 'resetUserAccess',
  summary: 'Give an account a temporary password, end its sessions and clear its second factors',
  tags: [TAG],
  request: { params: IdParam },
  responses: {
    200: jsonResponse(z.object({ user: UserSchema, temporary_password: z.string() }), 'The temporary password, shown once'),
    ...errorResponses(404, 409),
  },
});

export const createUser = defineRoute('admin', {
  method: 'post',
  path: '/users',
  operationId: 'createUser',
  summary: 'Create an account directly (the member changes its password at first sign-in)',
  description:
    'Without `password`, Hearth makes one and answers it once in `temporary_password`. Either way the first sign-in answers `requires_password_change` (with `password_change_reason` `first_password`), so the administrator never knows the password in use.',
  tags: [TAG],
  request: {
    body: jsonBody(
      z
        .strictObject({
          username: Username,
          display_name: DisplayName.optional(),
          password: NewPassword.optional(),
          role: z.enum(['admin', 'user']).optional().openapi({ description: 'Default `user`.' }),
        })
        .openapi('CreateUserRequest'),
    ),
  },
  responses: {
    201: jsonResponse(
      z.object({
        user: UserSchema,
        temporary_password: z.string().nullable().openapi({ description: 'The password Hearth made (shown once); null when the administrator gave one.' }),
      }),
      'Created',
    ),
    ...errorResponses(409),
  },
});

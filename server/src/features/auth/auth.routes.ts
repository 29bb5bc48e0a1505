/** Authentication and account operations: route definitions and their schemas. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { singleLine } from '../../platform/http/text.ts';
import { DisplayName, NewPassword, UserSchema, Username } from '../users/index.ts';

const TAG = 'Authentication and account';
const body = <T extends z.ZodType>(schema: T) => ({ body: jsonBody(schema) });

export const SessionSchema = z
  .object({
    token: z.string().nullable().openapi({ description: 'Bearer access token (15 minutes); null while a password change or MFA is pending.' }),
    expiresAt: z.string().nullable(),
    csrfToken: z.string().nullable().openapi({ description: 'Variant A: send as X-CSRF-Token to refresh and logout.' }),
    user: UserSchema,
    bootstrap_admin: z.boolean(),
    requires_mfa: z.boolean(),
    mfa_token: z.string().nullable(),
    mfa_methods: z.array(z.string()),
    requires_password_change: z.boolean(),
    password_change_token: z.string().nullable(),
    password_change_reason: z.enum(['first_password', 'access_reset']).nullable().openapi({
      description:
        'Why a new password is required (with `requires_password_change`): `first_password`, the administrator created the account with a password to replace; `access_reset`, the administrator reset the access. Null otherwise.',
    }),
    refresh_token: z.string().optional().openapi({ description: 'Variant B only: the refresh token, to send in the body of refresh and logout.' }),
  })
  .openapi('Session');

const Message = z.object({ message: z.string() }).openapi('Message');
const RefreshBody = z.strictObject({ refresh_token: z.string().min(1).max(200).optional() }).openapi('RefreshTokenBody', {
  description: 'Variant B: the refresh token. Variant A uses the HttpOnly cookie and ignores the body.',
});

export const getBrowserAuthCapabilities = defineRoute('public', {
  method: 'get',
  path: '/auth/browser-capabilities',
  operationId: 'getBrowserAuthCapabilities',
  summary: 'What this browser connection supports for sign-in',
  tags: [TAG],
  responses: {
    200: jsonResponse(
      z.object({
        current_origin: z.string(),
        insecure_transport: z.boolean(),
        passkey_available: z.boolean(),
        passkey_unavailable_reason: z.string().nullable().openapi({
          description:
            'Why passkeys cannot work at this address: `insecure_transport` (plain HTTP to something other than localhost), `ip_address` (an IP address is no relying party: open Hearth by a name); null when they can.',
        }),
      }),
    ),
  },
});

export const getBootstrapStatus = defineRoute('public', {
  method: 'get',
  path: '/auth/bootstrap',
  operationId: 'getBootstrapStatus',
  summary: 'Whether the install awaits its first account, and what registration needs',
  tags: [TAG],
  responses: {
    200: jsonResponse(
      z
        .object({
          bootstrap_mode: z.boolean(),
          next_role: z.enum(['admin', 'user']),
          registration_open: z.boolean(),
          invite_code_required: z.boolean(),
          setup_code_required: z.boolean(),
          local_request: z.boolean(),
          second_factor_required: z.boolean().openapi({
            description: 'Beyond the contract: the next account needs a second factor (staged registration: startStagedRegistration), as the household’s setting says.',
          }),
        })
        .openapi('BootstrapStatus'),
    ),
  },
});

export const RegisterRequest = z
  .strictObject({
    username: Username,
    password: NewPassword,
    display_name: DisplayName.optional(),
    setup_code: z.string().max(64).optional(),
    invite_code: z.string().max(500).optional(),
  })
  .openapi('RegisterRequest');

export const register = defineRoute('public', {
  method: 'post',
  path: '/auth/register',
  operationId: 'register',
  summary: 'Create an account and sign in',
  description:
    'The first account becomes the administrator; it can only be created from the Hearth machine itself or with the one-time `setup_code` printed at start. Later accounts need the administrator\'s `invite_code` (registration is closed without one). With `registration.require_second_factor` on, later accounts answer 403 `second_factor_required`: they are made by staged registration (startStagedRegistration).',
  tags: [TAG],
  request: body(RegisterRequest),
  responses: { 201: jsonResponse(SessionSchema, 'Registered and signed in'), ...errorResponses(403, 409, 429) },
});

export const login = defineRoute('public', {
  method: 'post',
  path: '/auth/login',
  operationId: 'login',
  summary: 'Sign in with user name and password',
  tags: [TAG],
  request: body(z.strictObject({ username: singleLine(z.string().min(1).max(64)), password: z.string().min(1).max(256) }).openapi('LoginRequest')),
  responses: { 200: jsonResponse(SessionSchema), ...errorResponses(401, 403, 429) },
});

export const getLoginOptions = defineRoute('public', {
  method: 'post',
  path: '/auth/login/options',
  operationId: 'getLoginOptions',
  summary: 'Which sign-in methods to offer for a user name (reveals nothing about the account)',
  tags: [TAG],
  request: body(z.strictObject({ username: singleLine(z.string().min(1).max(64)) })),
  responses: { 200: jsonResponse(z.object({ password: z.boolean(), passkey: z.boolean() }).openapi('LoginOptions')), ...errorResponses(429) },
});

export const completePasswordChange = defineRoute('public', {
  method: 'post',
  path: '/auth/password-change/complete',
  operationId: 'completePasswordChange',
  summary: 'Set a new password after an administrator reset, and sign in',
  tags: [TAG],
  request: body(z.strictObject({ password_change_token: z.string().min(1).max(200), new_password: NewPassword })),
  responses: { 200: jsonResponse(SessionSchema), ...errorResponses(401, 429) },
});

export const getCsrfToken = defineRoute('public', {
  method: 'get',
  path: '/auth/csrf',
  operationId: 'getCsrfToken',
  summary: 'The CSRF token bound to the current refresh cookie (variant A)',
  description:
    'Null when the browser holds no refresh cookie, or one whose session has ended (that cookie is cleared): a page asks this at every load to learn whether a session can be restored, so no session is an answer, not an error.',
  tags: [TAG],
  responses: { 200: jsonResponse(z.object({ csrfToken: z.string().nullable() })) },
});

export const refreshSession = defineRoute('public', {
  method: 'post',
  path: '/auth/refresh',
  operationId: 'refreshSession',
  summary: 'Rotate the refresh token and get a new access token',
  description:
    'Variant A: the HttpOnly refresh cookie plus header `X-CSRF-Token`. Variant B: `refresh_token` in the body. Presenting a refresh token that was already used ends every session of its user.',
  tags: [TAG],
  request: {
    headers: z.object({ 'x-csrf-token': z.string().max(200).optional() }),
    body: jsonBody(RefreshBody, { required: false }),
  },
  responses: { 200: jsonResponse(SessionSchema), ...errorResponses(401, 403, 429) },
});

export const logout = defineRoute('public', {
  method: 'post',
  path: '/auth/logout',
  operationId: 'logout',
  summary: 'End this session',
  description: 'Variant A: cookie plus `X-CSRF-Token`; the cookie is cleared. Variant B: `refresh_token` in the body.',
  tags: [TAG],
  request: {
    headers: z.object({ 'x-csrf-token': z.string().max(200).optional() }),
    body: jsonBody(RefreshBody, { required: false }),
  },
  responses: { 200: jsonResponse(Message), ...errorResponses(403) },
});

export const getMe = defineRoute('user', {
  method: 'get',
  path: '/auth/me',
  operationId: 'getMe',
  summary: 'The signed-in user',
  tags: [TAG],
  responses: { 200: jsonResponse(UserSchema) },
});

export const getMediaToken = defineRoute('user', {
  method: 'get',
  path: '/auth/media-token',
  operationId: 'getMediaToken',
  summary: 'A short-lived token for media URLs (`?mt=`)',
  tags: [TAG],
  responses: { 200: jsonResponse(z.object({ token: z.string(), expires_at: z.string() }).openapi('MediaToken')) },
});

export const changeMyPassword = defineRoute('user', {
  method: 'put',
  path: '/users/me/password',
  operationId: 'changeMyPassword',
  summary: 'Change my password; every session ends and this device gets a new one',
  tags: [TAG],
  request: body(z.strictObject({ current_password: z.string().min(1).max(256), new_password: NewPassword })),
  responses: { 200: jsonResponse(SessionSchema), ...errorResponses(403, 429) },
});

export const updateMyProfile = defineRoute('user', {
  method: 'patch',
  path: '/users/me/profile',
  operationId: 'updateMyProfile',
  summary: 'Change my display name or avatar',
  tags: [TAG],
  request: body(
    z.strictObject({
      display_name: DisplayName.optional(),
      avatar_asset_id: z.uuid().nullable().optional().openapi({ description: 'One of your own assets (not in the Trash); anything else answers 404 `asset_not_found`. null clears it.' }),
    }),
  ),
  responses: { 200: jsonResponse(UserSchema), ...errorResponses(404) },
});

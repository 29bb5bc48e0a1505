/** Signed-in devices (beyond the contract: server/operations.extensions.md): routes and schemas. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';

const ACCOUNT = 'Authentication and account';
const USERS = 'Users and settings';

const SessionId = z.uuid().openapi({ param: { name: 'session_id', in: 'path' }, description: 'A `session_id` from the list of sessions.' });
const UserId = z.coerce.number().int().positive().openapi({ param: { name: 'id', in: 'path' }, example: 2 });

const SignedInDeviceSchema = z
  .object({
    session_id: z.string(),
    current: z.boolean().openapi({ description: 'The session asking (this device).' }),
    browser: z.string().openapi({ description: 'From the user agent: Chrome, Edge, Firefox, Safari, Samsung Internet, Opera, `Hearth app` (the desktop app), or `Unknown`.' }),
    browser_version: z.string().nullable().openapi({ description: 'The browser’s major version, when the user agent says it.' }),
    system: z.string().openapi({ description: 'Windows, macOS, iOS, iPadOS, Android, Linux, ChromeOS or `Unknown`.' }),
    user_agent: z.string().nullable(),
    ip: z.string().nullable().openapi({ description: 'The address the session signed in from.' }),
    created_at: z.string(),
    last_used_at: z.string().openapi({ description: 'The last sign-in or token refresh of the session (a refresh comes every 15 minutes of use).' }),
    expires_at: z.string(),
    auth_methods: z.array(z.string()).openapi({ description: 'How it signed in: `password`, then `totp` or `recovery_code`.' }),
  })
  .openapi('SignedInDevice');

const DeviceListSchema = z.object({ sessions: z.array(SignedInDeviceSchema) }).openapi('SignedInDevices');
const RevokedSchema = z.object({ revoked: z.number().int().openapi({ description: 'How many sessions were ended.' }) }).openapi('SessionsRevoked');

export const listMySessions = defineRoute('user', {
  method: 'get',
  path: '/auth/sessions',
  operationId: 'listMySessions',
  summary: 'My signed-in devices: sessions not ended, the most recently used first',
  tags: [ACCOUNT],
  responses: { 200: jsonResponse(DeviceListSchema) },
});

export const revokeMySession = defineRoute('user', {
  method: 'delete',
  path: '/auth/sessions/{session_id}',
  operationId: 'revokeMySession',
  summary: 'Sign out one of my other devices',
  description:
    'Its refresh token stops working and its access token is refused at its next request. 404 `session_not_found` for a session that ended or is not yours; 409 `current_session` for the session asking (that is logout).',
  tags: [ACCOUNT],
  request: { params: z.object({ session_id: SessionId }) },
  responses: { 200: jsonResponse(RevokedSchema), ...errorResponses(404, 409) },
});

export const revokeMyOtherSessions = defineRoute('user', {
  method: 'post',
  path: '/auth/sessions/revoke-others',
  operationId: 'revokeMyOtherSessions',
  summary: 'Sign out every device of mine but this one',
  tags: [ACCOUNT],
  responses: { 200: jsonResponse(RevokedSchema) },
});

export const listUserSessions = defineRoute('admin', {
  method: 'get',
  path: '/users/{id}/sessions',
  operationId: 'listUserSessions',
  summary: "A member's signed-in devices",
  tags: [USERS],
  request: { params: z.object({ id: UserId }) },
  responses: { 200: jsonResponse(DeviceListSchema), ...errorResponses(404) },
});

export const revokeUserSession = defineRoute('admin', {
  method: 'delete',
  path: '/users/{id}/sessions/{session_id}',
  operationId: 'revokeUserSession',
  summary: "Sign out one of a member's devices",
  description: '404 `user_not_found`, or `session_not_found` for a session that ended or is not this member’s; 409 `current_session` for the session asking.',
  tags: [USERS],
  request: { params: z.object({ id: UserId, session_id: SessionId }) },
  responses: { 200: jsonResponse(RevokedSchema), ...errorResponses(404, 409) },
});

export const revokeUserSessions = defineRoute('admin', {
  method: 'delete',
  path: '/users/{id}/sessions',
  operationId: 'revokeUserSessions',
  summary: 'Sign a member out everywhere',
  description: 'Ends every session of the account (for the administrator’s own account, every one but the session asking). 404 `user_not_found`.',
  tags: [USERS],
  request: { params: z.object({ id: UserId }) },
  responses: { 200: jsonResponse(RevokedSchema), ...errorResponses(404) },
});

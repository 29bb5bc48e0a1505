/** Passkey operations (WebAuthn): routes and schemas. See passkeys.service.ts for the rules. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { singleLine } from '../../platform/http/text.ts';
import { SessionSchema } from './auth.routes.ts';
import { MfaStatusSchema } from './mfa.routes.ts';
import { PasskeyAnswer } from './webauthn.schemas.ts';

const TAG = 'Authentication and account';
const body = <T extends z.ZodType>(schema: T) => ({ body: jsonBody(schema) });

const CeremonySchema = z
  .object({
    challenge_token: z.string(),
    options: z.object({}).passthrough().openapi({ description: 'PublicKeyCredential creation or request options, as JSON, for the browser.' }),
  })
  .openapi('PasskeyCeremony');

export const PasskeySchema = z
  .object({
    passkey_id: z.number().int(),
    label: z.string(),
    transports: z.array(z.string()),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    rp_id: z.string().openapi({ description: 'Beyond the contract: the host name the passkey was made for; it works there only.' }),
  })
  .openapi('Passkey');

export const beginPasskeyLogin = defineRoute('public', {
  method: 'post',
  path: '/auth/passkeys/login/begin',
  operationId: 'beginPasskeyLogin',
  summary: 'Start signing in with a passkey (on its own, or as the second step after a password)',
  description:
    'With `username`: that account’s passkeys for this address (an unknown name gets the same answer with none listed, and the browser offers any passkey it holds here). With `mfa_token` (a login that answered `requires_mfa`): that account’s passkeys, and the verify call completes that sign-in. 409 `passkey_unavailable` where browsers allow no WebAuthn (plain HTTP to a LAN address, an IP address).',
  tags: [TAG],
  request: body(
    z
      .strictObject({ username: singleLine(z.string().min(1).max(64)).optional(), mfa_token: z.string().min(1).max(200).optional() })
      .refine((b) => !(b.username !== undefined && b.mfa_token !== undefined), { message: 'give username or mfa_token, not both' })
      .openapi('PasskeyLoginBegin'),
  ),
  responses: { 200: jsonResponse(CeremonySchema), ...errorResponses(401, 409) },
});

export const verifyPasskeyLogin = defineRoute('public', {
  method: 'post',
  path: '/auth/passkeys/login/verify',
  operationId: 'verifyPasskeyLogin',
  summary: 'Finish signing in with a passkey → a session',
  description:
    '401 `challenge_invalid` (expired or answered), `passkey_invalid` (unknown passkey, wrong challenge, origin or rp id, no user verification), `passkey_counter` (the signature counter went backwards), `mfa_token_invalid`; 429 after too many failures.',
  tags: [TAG],
  request: body(PasskeyAnswer.openapi('PasskeyLoginVerify')),
  responses: { 200: jsonResponse(SessionSchema), ...errorResponses(401, 403, 429) },
});

export const beginPasskeyEnrollment = defineRoute('user', {
  method: 'post',
  path: '/auth/passkeys/enrollment/begin',
  operationId: 'beginPasskeyEnrollment',
  summary: 'Start adding a passkey to my account',
  description: 'Options for navigator.credentials.create, made for this address (the passkey works here only). 409 `passkey_unavailable` where browsers allow no WebAuthn.',
  tags: [TAG],
  responses: { 200: jsonResponse(CeremonySchema), ...errorResponses(409) },
});

export const verifyPasskeyEnrollment = defineRoute('user', {
  method: 'post',
  path: '/auth/passkeys/enrollment/verify',
  operationId: 'verifyPasskeyEnrollment',
  summary: 'Finish adding a passkey → the passkey, and this device signed in anew',
  description: '`label` names it in the list (default: the browser and system that added it). 403 `challenge_invalid`, `passkey_invalid`; 409 `passkey_exists`.',
  tags: [TAG],
  request: body(PasskeyAnswer.extend({ label: singleLine(z.string().max(60)).optional() }).openapi('PasskeyEnrollmentVerify')),
  responses: { 200: jsonResponse(z.object({ credential: PasskeySchema, session: SessionSchema }).openapi('PasskeyAdded')), ...errorResponses(403, 409, 429) },
});

export const listPasskeys = defineRoute('user', {
  method: 'get',
  path: '/auth/passkeys',
  operationId: 'listPasskeys',
  summary: 'My passkeys',
  tags: [TAG],
  responses: { 200: jsonResponse(z.object({ credentials: z.array(PasskeySchema), total: z.number().int() }).openapi('PasskeyList')) },
});

export const deletePasskey = defineRoute('user', {
  method: 'delete',
  path: '/auth/passkeys/{id}',
  operationId: 'deletePasskey',
  summary: 'Remove a passkey (every other session ends)',
  description: 'Spends a `security_token` made for `delete_passkey`. The passkey may be on a lost device: every other session of the account ends and `session` signs this device in anew. 404 `passkey_not_found`.',
  tags: [TAG],
  request: {
    params: z.object({ id: z.coerce.number().int().positive().openapi({ param: { name: 'id', in: 'path' }, example: 1 }) }),
    ...body(z.strictObject({ security_token: z.string().min(1).max(200) }).openapi('PasskeyDeleteRequest')),
  },
  responses: { 200: jsonResponse(z.object({ session: SessionSchema, status: MfaStatusSchema }).openapi('PasskeyRemoved')), ...errorResponses(403, 404) },
});

export const beginSecurityPasskey = defineRoute('user', {
  method: 'post',
  path: '/auth/security/passkey/begin',
  operationId: 'beginSecurityPasskey',
  summary: 'Start confirming it is me with a passkey (for verifyRecentSecurity)',
  description: 'Beyond the contract: the challenge a passkey signs to make a step-up proof; its answer goes to verifyRecentSecurity as `passkey`. 409 `no_passkey`, `passkey_unavailable`.',
  tags: [TAG],
  responses: { 200: jsonResponse(CeremonySchema), ...errorResponses(409) },
});

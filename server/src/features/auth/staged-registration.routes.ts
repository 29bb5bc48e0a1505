/** Staged registration (an account made only with its second factor): routes and schemas. See staged-registration.service.ts. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { RegisterRequest, SessionSchema } from './auth.routes.ts';
import { PasskeySchema } from './passkeys.routes.ts';
import { PasskeyAnswer } from './webauthn.schemas.ts';
import { singleLine } from '../../platform/http/text.ts';

const TAG = 'Authentication and account';
const body = <T extends z.ZodType>(schema: T) => ({ body: jsonBody(schema) });
const StageToken = z.strictObject({ stage_token: z.string().min(1).max(200) });

export const startStagedRegistration = defineRoute('public', {
  method: 'post',
  path: '/auth/register/staged',
  operationId: 'startStagedRegistration',
  summary: 'Start creating an account that comes with its second factor',
  description:
    'Checks what register checks (invite, setup code for the first account, a free name) and answers a `stage_token` (15 minutes); no account exists yet, and the name is not reserved. Go on with beginStagedTotpSetup or beginStagedPasskeyRegistration.',
  tags: [TAG],
  request: body(RegisterRequest),
  responses: {
    201: jsonResponse(z.object({ stage_token: z.string(), expires_at: z.string(), methods: z.array(z.string()) }).openapi('RegistrationStage'), 'Stage started'),
    ...errorResponses(403, 409, 429),
  },
});

export const beginStagedTotpSetup = defineRoute('public', {
  method: 'post',
  path: '/auth/register/staged/totp/setup',
  operationId: 'beginStagedTotpSetup',
  summary: 'The authenticator app key for the account being created (shown once)',
  tags: [TAG],
  request: body(StageToken.openapi('StagedTotpSetupRequest')),
  responses: {
    200: jsonResponse(
      z
        .object({ account_name: z.string(), issuer: z.string(), otpauth_uri: z.string(), qr_svg: z.string(), secret: z.string(), expires_at: z.string() })
        .openapi('StagedTotpSetup'),
    ),
    ...errorResponses(401),
  },
});

export const completeStagedTotpRegistration = defineRoute('public', {
  method: 'post',
  path: '/auth/register/staged/totp/complete',
  operationId: 'completeStagedTotpRegistration',
  summary: 'Create the account with its first authenticator code → a session and the recovery codes',
  description: '403 `mfa_code_invalid`, `totp_setup_missing`; 401 `stage_invalid` (expired or completed); 409 `username_taken` when someone took the name meanwhile.',
  tags: [TAG],
  request: body(StageToken.extend({ code: z.string().min(1).max(64) }).openapi('StagedTotpComplete')),
  responses: {
    201: jsonResponse(z.object({ session: SessionSchema, recovery_codes: z.array(z.string()), generated_at: z.string() }).openapi('StagedTotpRegistered'), 'Registered'),
    ...errorResponses(401, 403, 409, 429),
  },
});

export const beginStagedPasskeyRegistration = defineRoute('public', {
  method: 'post',
  path: '/auth/register/staged/passkey/begin',
  operationId: 'beginStagedPasskeyRegistration',
  summary: 'Passkey options for the account being created',
  description: '409 `passkey_unavailable` where browsers allow no WebAuthn (use the authenticator app there).',
  tags: [TAG],
  request: body(StageToken.openapi('StagedPasskeyBegin')),
  responses: { 200: jsonResponse(z.object({ challenge_token: z.string(), options: z.object({}).passthrough() }).openapi('StagedPasskeyCeremony')), ...errorResponses(401, 409) },
});

export const verifyStagedPasskeyRegistration = defineRoute('public', {
  method: 'post',
  path: '/auth/register/staged/passkey/verify',
  operationId: 'verifyStagedPasskeyRegistration',
  summary: 'Create the account with its passkey → a session',
  tags: [TAG],
  request: body(PasskeyAnswer.extend({ label: singleLine(z.string().max(60)).optional() }).openapi('StagedPasskeyVerify')),
  responses: { 201: jsonResponse(z.object({ session: SessionSchema, credential: PasskeySchema }).openapi('StagedPasskeyRegistered'), 'Registered'), ...errorResponses(401, 403, 409, 429) },
});

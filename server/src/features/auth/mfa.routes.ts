/** Second factor operations (TOTP, recovery codes, the sign-in's second step, step-up proofs): routes and schemas. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { SessionSchema } from './auth.routes.ts';
import { SECURITY_ACTIONS } from './mfa.service.ts';
import { PasskeyAnswer } from './webauthn.schemas.ts';

const TAG = 'Authentication and account';
const body = <T extends z.ZodType>(schema: T) => ({ body: jsonBody(schema) });

/** Codes are checked by the service, not the schema: a malformed code is a wrong code and counts as one. */
const TotpCode = z.string().min(1).max(64).openapi({ description: 'The 6 digits the authenticator shows (spaces ignored).', example: '123456' });
const RecoveryCode = z.string().min(1).max(64).openapi({ description: 'One of the recovery codes (`xxxxx-xxxxx`; case, spaces and the dash ignored).' });
const SecurityToken = z.string().min(1).max(200).openapi({ description: 'A `security_token` from verifyRecentSecurity made for this operation’s `action`.' });

export const MfaStatusSchema = z
  .object({
    totp_enabled: z.boolean(),
    available_methods: z.array(z.string()).openapi({
      description: 'What verifyRecentSecurity (and the sign-in’s second step) accepts from this account: `totp` and `recovery_code` (while codes remain) with two-step sign-in on, else `password`.',
    }),
    passkey_count: z.number().int(),
    recovery_codes_remaining: z.number().int(),
    recovery_codes_generated_at: z.string().nullable(),
    session: z
      .object({ signed_in_at: z.string(), methods: z.array(z.string()).openapi({ description: 'How this session was signed in: `password`, then `totp` or `recovery_code`.' }) })
      .openapi({ description: 'The session asking.' }),
  })
  .openapi('MfaStatus');

const FreshCodesSchema = z
  .object({
    generated_at: z.string(),
    recovery_codes: z.array(z.string()).openapi({ description: 'Ten codes, shown this once; each signs in once instead of a TOTP code.' }),
    session: SessionSchema.openapi({ description: 'Every other session of the account ended; this device is signed in anew.' }),
    status: MfaStatusSchema,
  })
  .openapi('RecoveryCodesIssued');

const SecurityTokenBody = z.strictObject({ security_token: SecurityToken });

export const getMfaStatus = defineRoute('user', {
  method: 'get',
  path: '/auth/mfa',
  operationId: 'getMfaStatus',
  summary: 'My second factors: TOTP on or off, recovery codes left, how this session signed in',
  tags: [TAG],
  responses: { 200: jsonResponse(MfaStatusSchema) },
});

export const verifyRecentSecurity = defineRoute('user', {
  method: 'post',
  path: '/auth/security/verify',
  operationId: 'verifyRecentSecurity',
  summary: 'Prove it is you again, for one sensitive change → a one-time security token',
  description:
    'Exactly one of `code` (TOTP), `recovery_code` (spent), `passkey` (the answer to beginSecurityPasskey) or `password` (only for an account without a second factor: with one it answers 403 `second_factor_required`; without one a code answers 409 `no_second_factor`). The token is valid for 5 minutes, for this account and this `action` only, and is spent by that operation. Wrong codes and passwords count in the sign-in rate limits (429).',
  tags: [TAG],
  request: body(
    z
      .strictObject({
        action: z.enum(SECURITY_ACTIONS).openapi({ description: 'The operation the token is for: `begin_totp_setup` (beginTotpSetup), `disable_totp`, `regenerate_recovery_codes`, `delete_passkey`.' }),
        code: TotpCode.optional(),
        recovery_code: RecoveryCode.optional(),
        password: z.string().min(1).max(256).optional(),
        passkey: PasskeyAnswer.optional().openapi({ description: 'The answer to a beginSecurityPasskey ceremony.' }),
      })
      .openapi('SecurityVerification'),
  ),
  responses: { 200: jsonResponse(z.object({ security_token: z.string(), expires_at: z.string() }).openapi('SecurityProof')), ...errorResponses(403, 409, 429) },
});

export const beginTotpSetup = defineRoute('user', {
  method: 'post',
  path: '/auth/mfa/totp/setup',
  operationId: 'beginTotpSetup',
  summary: 'Start turning on two-step sign-in: a new TOTP key, shown once',
  description:
    'Spends a `security_token` made for `begin_totp_setup`. The key (`secret`, and inside `otpauth_uri` for a QR code) is shown this once; `setup_token` (10 minutes) goes to enableTotp with the first code. A new setup replaces an unfinished one. 409 `totp_already_enabled` when it is on.',
  tags: [TAG],
  request: body(SecurityTokenBody.openapi('TotpSetupRequest')),
  responses: {
    200: jsonResponse(
      z
        .object({
          account_name: z.string(),
          issuer: z.string(),
          otpauth_uri: z.string(),
          qr_svg: z.string().openapi({ description: 'Beyond the contract: `otpauth_uri` as a QR code (SVG text), drawn by the server so the key goes to no QR service.' }),
          secret: z.string(),
          setup_token: z.string(),
          expires_at: z.string(),
        })
        .openapi('TotpSetup'),
    ),
    ...errorResponses(403, 409),
  },
});

export const enableTotp = defineRoute('user', {
  method: 'post',
  path: '/auth/mfa/totp/enable',
  operationId: 'enableTotp',
  summary: 'Finish turning on two-step sign-in with the first code; get the recovery codes',
  description:
    'The `setup_token` of beginTotpSetup is this operation’s proof (it was made by spending a security token). Every other session of the account ends; `session` signs this device in anew (variant A: the refresh cookie is replaced).',
  tags: [TAG],
  request: body(z.strictObject({ setup_token: z.string().min(1).max(200), code: TotpCode }).openapi('TotpEnableRequest')),
  responses: { 200: jsonResponse(FreshCodesSchema), ...errorResponses(403, 409, 429) },
});

export const disableTotp = defineRoute('user', {
  method: 'post',
  path: '/auth/mfa/totp/disable',
  operationId: 'disableTotp',
  summary: 'Turn two-step sign-in off (the recovery codes stop working)',
  description: 'Spends a `security_token` made for `disable_totp`. 409 `totp_not_enabled` when it is off.',
  tags: [TAG],
  request: body(SecurityTokenBody.openapi('TotpDisableRequest')),
  responses: { 200: jsonResponse(MfaStatusSchema), ...errorResponses(403, 409) },
});

export const regenerateRecoveryCodes = defineRoute('user', {
  method: 'post',
  path: '/auth/mfa/recovery-codes',
  operationId: 'regenerateRecoveryCodes',
  summary: 'Replace the recovery codes with ten new ones',
  description:
    'Spends a `security_token` made for `regenerate_recovery_codes`. The old codes stop working, every other session ends and `session` signs this device in anew. 409 `totp_not_enabled` without two-step sign-in.',
  tags: [TAG],
  request: body(SecurityTokenBody.openapi('RecoveryCodesRequest')),
  responses: { 200: jsonResponse(FreshCodesSchema), ...errorResponses(403, 409) },
});

export const verifyMfa = defineRoute('public', {
  method: 'post',
  path: '/auth/mfa/verify',
  operationId: 'verifyMfa',
  summary: 'The second step of a sign-in: a TOTP code or a recovery code → a session',
  description:
    'Takes the `mfa_token` of a login that answered `requires_mfa` (5 minutes, used once) and exactly one of `code` or `recovery_code`. 401 `mfa_token_invalid` (expired, used, unknown), `mfa_code_invalid`, `mfa_code_reused` (a code is accepted once); 429 after too many wrong codes for the account or the address.',
  tags: [TAG],
  request: body(
    z.strictObject({ mfa_token: z.string().min(1).max(200), code: TotpCode.optional(), recovery_code: RecoveryCode.optional() }).openapi('MfaVerification'),
  ),
  responses: { 200: jsonResponse(SessionSchema), ...errorResponses(401, 403, 429) },
});

/**
 * The calls of Account → Security: the second factor's status, step-up proofs and TOTP enrolment.
 * Through the bearer client; a wrong code there answers 403 (not 401), so it reaches the form and
 * never triggers a session renewal.
 */
import { api } from '../../../api/client';
import { request } from '../../../api/problem';
import type { components } from '../../../api/schema';

export type MfaStatus = components['schemas']['MfaStatus'];
export type TotpSetup = components['schemas']['TotpSetup'];
export type RecoveryCodesIssued = components['schemas']['RecoveryCodesIssued'];
export type SecurityAction = components['schemas']['SecurityVerification']['action'];
/** One proof: a TOTP code, a recovery code, a passkey's answer, or (for an account without TOTP) the password. */
export type Proof = { code: string } | { recovery_code: string } | { password: string } | { passkey: { challenge_token: string; credential: never } };

export const mfaStatusKey = ['auth', 'mfa'] as const;

export const getMfaStatus = () => request(api.GET('/api/v1/auth/mfa'));

export const verifyRecentSecurity = (action: SecurityAction, proof: Proof) =>
  request(api.POST('/api/v1/auth/security/verify', { body: { action, ...proof } }));

export const beginTotpSetup = (security_token: string) => request(api.POST('/api/v1/auth/mfa/totp/setup', { body: { security_token } }));

export const enableTotp = (setup_token: string, code: string) => request(api.POST('/api/v1/auth/mfa/totp/enable', { body: { setup_token, code } }));

export const disableTotp = (security_token: string) => request(api.POST('/api/v1/auth/mfa/totp/disable', { body: { security_token } }));

export const regenerateRecoveryCodes = (security_token: string) =>
  request(api.POST('/api/v1/auth/mfa/recovery-codes', { body: { security_token } }));

export const passkeysKey = ['auth', 'passkeys'] as const;
export type Passkey = components['schemas']['Passkey'];

export const listPasskeys = () => request(api.GET('/api/v1/auth/passkeys'));

export const deletePasskey = (id: number, security_token: string) =>
  request(api.DELETE('/api/v1/auth/passkeys/{id}', { params: { path: { id } }, body: { security_token } }));

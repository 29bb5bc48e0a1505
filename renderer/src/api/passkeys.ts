/**
 * Passkeys in the browser: whether this address can use them (the server's browser capabilities),
 * and the three ceremonies the UI runs: sign in (on its own, or as the second step after a password),
 * add one to the account, and confirm it is you with one. The browser's part goes through
 * @simplewebauthn/browser (navigator.credentials with base64url JSON both ways).
 */
import { startAuthentication, startRegistration, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import { bareClient } from './bare-client';
import { api } from './client';
import { ApiError, request } from './problem';

/** What this address allows (GET /auth/browser-capabilities, public). */
export function useBrowserAuthCapabilities() {
  return useQuery({
    queryKey: ['auth', 'browser-capabilities'],
    queryFn: () => request(bareClient.GET('/api/v1/auth/browser-capabilities')),
    staleTime: Infinity,
  });
}

/** Why passkeys are not offered here, in words, with what works instead. */
export function passkeyUnavailableText(reason: string | null | undefined, origin: string | undefined): string {
  const host = origin ? new URL(origin).host : 'this address';
  if (reason === 'ip_address') {
    return `Passkeys are not available here: this page is open at a numeric address (${host}), and browsers only allow passkeys for a name, such as hearth.home.arpa over HTTPS or localhost on the computer running Hearth. Sign in with your password here.`;
  }
  if (reason === 'insecure_transport') {
    return `Passkeys are not available here: ${host} is open over plain HTTP, and browsers only allow passkeys over HTTPS (or at localhost on the computer running Hearth). Sign in with your password here.`;
  }
  return 'Passkeys are not available here.';
}

/** A ceremony the person cancelled or let time out: a message for it, or null for any other failure. */
export function cancelledMessage(error: unknown): string | null {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NotAllowedError' || name === 'AbortError' ? 'The passkey was not used: it was cancelled, or took too long. Try again.' : null;
}

type Ceremony<O> = { challenge_token: string; options: O };

/** Signs in with a passkey: by `username` (or none: any passkey this browser holds here), or with the `mfa_token` of a password sign-in. */
export async function signInWithPasskey(by: { username?: string; mfa_token?: string }) {
  const begun = (await request(bareClient.POST('/api/v1/auth/passkeys/login/begin', { body: by }))) as unknown as Ceremony<PublicKeyCredentialRequestOptionsJSON>;
  const credential = await startAuthentication({ optionsJSON: begun.options });
  return request(bareClient.POST('/api/v1/auth/passkeys/login/verify', { body: { challenge_token: begun.challenge_token, credential: credential as never } }));
}

/** Adds a passkey to the signed-in account; answers the passkey and this device's new session. */
export async function addPasskey(label: string) {
  const begun = (await request(api.POST('/api/v1/auth/passkeys/enrollment/begin'))) as unknown as Ceremony<PublicKeyCredentialCreationOptionsJSON>;
  const credential = await startRegistration({ optionsJSON: begun.options });
  return request(
    api.POST('/api/v1/auth/passkeys/enrollment/verify', { body: { challenge_token: begun.challenge_token, credential: credential as never, ...(label.trim() ? { label: label.trim() } : {}) } }),
  );
}

/** The answer of a step-up ceremony with one of my passkeys, for verifyRecentSecurity's `passkey`. */
export async function passkeyProofAnswer() {
  const begun = (await request(api.POST('/api/v1/auth/security/passkey/begin'))) as unknown as Ceremony<PublicKeyCredentialRequestOptionsJSON>;
  const credential = await startAuthentication({ optionsJSON: begun.options });
  return { challenge_token: begun.challenge_token, credential: credential as never };
}

export { ApiError };

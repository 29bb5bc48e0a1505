/**
 * Why connecting or importing failed, in words a household member understands, from the server's problem code
 * (`cloud_auth_failed`, `cloud_unreachable`…). Codes without a sentence here keep the server's own `detail`, which is
 * written for people too (a provider's particular refusal, a field that is malformed).
 *
 * The sentences about the remote side speak of "the server at this address": they are WebDAV's, whose member typed
 * that address. Another provider's refusals (iCloud: a wrong Apple Account password, a wrong code, web access off,
 * Advanced Data Protection) are said by the provider itself, in the detail, naming the service the member knows.
 */
import { ApiError, messageOf } from '../../api/problem';

/** The remote side is a server at an address the member typed (WebDAV: Nextcloud, ownCloud, a NAS). */
const SERVER_WORDS: Record<string, string> = {
  cloud_auth_failed: 'The server did not accept this user name and password. Check both and try again (for Nextcloud and ownCloud, an app password).',
  cloud_unreachable:
    'Hearth could not reach the server at this address. Check the address, and that the server is switched on and can be reached from the computer Hearth runs on.',
  cloud_tls_untrusted: 'The server’s certificate is not trusted, so Hearth did not send your password to it.',
  cloud_redirect_refused:
    'The server sent Hearth on to another address. Hearth does not follow it, so your password never goes anywhere else: enter the address the server is reached at directly.',
  cloud_protocol: 'Something answers at this address, but not the kind of server expected. Check the address: it should be the one the server gives for this.',
  cloud_service_unavailable: 'The server is busy or paused for maintenance right now. Try again in a few minutes.',
};

/** Per provider, the words that are particular to it. */
const PROVIDER_WORDS: Record<string, Record<string, string>> = { webdav: SERVER_WORDS };

const WORDS: Record<string, string> = {
  cloud_session_expired: 'The stored sign-in is no longer accepted. Enter the password to connect again.',
  cloud_not_found: 'This folder is not on the server (any more). Choose another one.',
  cloud_account_changed: 'These sign-in details are for another account. Add that account as a new connection instead.',
  credential_not_connected: 'This account is not connected. Reconnect it first.',
  no_challenge_pending: 'This account is no longer waiting for a code. Reconnect it to get a new one.',
  import_run_active: 'An import from this source into this repository is already under way.',
  import_run_not_resumable: 'This import has finished. Start a new one: it fetches only what is new or changed.',
  takeout_upload_bad_name: 'This file is not named like a part of a Google Takeout export (takeout-….zip or .tgz). Add the parts as Google named them.',
  takeout_upload_too_large: 'The file changed while it was being sent (it is larger than when it was added). Add it again.',
  takeout_upload_not_found: 'The server no longer has this upload (it waited more than a day). Retry to send the part again.',
  insufficient_storage: 'The repository’s disk is full. Free some space (or choose another repository), then try again.',
  takeout_part_not_found: 'A chosen part is no longer in the repository. Choose the parts again.',
  repository_unavailable: 'The repository cannot be reached right now (its disk may be unplugged). Try again when it is back.',
};

const wordsIn = (table: Record<string, string> | undefined, code: string) => (table && Object.hasOwn(table, code) ? table[code] : undefined);

/** The sentence to show for a failure of the import page's calls; `provider` is the provider id the call was about, if any. */
export function importProblemWords(error: unknown, provider?: string): string {
  if (error instanceof ApiError) return wordsIn(provider ? PROVIDER_WORDS[provider] : undefined, error.code) ?? wordsIn(WORDS, error.code) ?? error.detail;
  return messageOf(error);
}

export const codeOf = (error: unknown): string | null => (error instanceof ApiError ? error.code : null);

/** The SHA-256 fingerprint (colon hex) of the certificate a `cloud_tls_untrusted` problem refused (its `fingerprint` member). */
export function fingerprintIn(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'cloud_tls_untrusted') return null;
  return error.members.fingerprint ?? null;
}

/** The run an `import_run_active` refusal names (its `run_id` member), to show it instead. */
export function activeRunIn(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'import_run_active') return null;
  return error.members.run_id ?? null;
}

/** Field errors of a provider's form: the server names them `inputs.<field>`. */
export function inputErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(error.fieldErrors)) if (k.startsWith('inputs.')) out[k.slice('inputs.'.length)] = v;
  return out;
}

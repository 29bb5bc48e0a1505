/**
 * The sign-in form's inputs as a WebDAV account, and the account as the credential's state and back. The state
 * keeps the password in `secrets` only: `publicConfig` is shown to clients.
 */
import { ProviderError, type ProviderState } from '../provider.ts';
import type { DavAccount } from './dav-client.ts';
import { hasControlCharacter } from './remote-paths.ts';
import { normaliseFingerprint } from './tls-trust.ts';

function badInput(field: string, message: string): ProviderError {
  return new ProviderError('bad_input', message, false, { field });
}

/** http(s) only, no credentials, query or fragment in it; the path ends in '/' (it names a folder). */
export function normaliseUrl(input: string | undefined): URL {
  const text = (input ?? '').trim();
  if (!text) throw badInput('url', 'Enter the WebDAV address of your server.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badInput('url', 'The address is not a web address (it starts with https:// or http://).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badInput('url', 'The address must start with https:// or http://.');
  if (url.username || url.password) throw badInput('url', 'Leave the user name and password out of the address: enter them in their own fields.');
  if (url.search || url.hash) throw badInput('url', 'The address of a WebDAV folder has no "?" or "#" part.');
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function checkUsername(input: string | undefined): string {
  const username = (input ?? '').trim();
  if (!username) throw badInput('username', 'Enter your user name.');
  // Basic auth separates the user from the password with the first ':'.
  if (username.includes(':')) throw badInput('username', 'A user name cannot contain ":".');
  if (hasControlCharacter(username)) throw badInput('username', 'The user name contains a control character.');
  return username;
}

function checkPassword(input: string | undefined): string {
  const password = input ?? '';
  if (!password) throw badInput('password', 'Enter your password or app token.');
  if (['\0', '\r', '\n'].some((c) => password.includes(c))) throw badInput('password', 'The password contains a line break or NUL character.');
  return password;
}

export function checkFingerprint(input: string | undefined): string | null {
  if (!input?.trim()) return null;
  const fingerprint = normaliseFingerprint(input);
  if (!fingerprint) {
    throw badInput('trusted_fingerprint', 'A SHA-256 fingerprint is 64 hexadecimal digits (colons between pairs are fine).');
  }
  return fingerprint;
}

export function accountFromInputs(inputs: Record<string, string>): DavAccount {
  return {
    base: normaliseUrl(inputs.url),
    username: checkUsername(inputs.username),
    password: checkPassword(inputs.password),
    trustedFingerprint: checkFingerprint(inputs.trusted_fingerprint),
  };
}

/** The stored account; `password` and `trusted_fingerprint` from a reconnect form replace the stored ones. */
export function accountFromState(state: ProviderState, overrides: Record<string, string> = {}): DavAccount {
  const config = state.publicConfig;
  const password = overrides.password ? checkPassword(overrides.password) : state.secrets.password;
  if (!password) throw badInput('password', 'Enter your password or app token to connect again.');
  return {
    base: normaliseUrl(config.url),
    username: checkUsername(config.username),
    password,
    trustedFingerprint: checkFingerprint(overrides.trusted_fingerprint || config.trusted_fingerprint),
  };
}

export function stateOf(account: DavAccount): ProviderState {
  const url = account.base.href;
  return {
    identity: `${url}|${account.username}`,
    displayName: `${account.username}@${account.base.host}`,
    publicConfig: {
      url,
      username: account.username,
      ...(account.trustedFingerprint ? { trusted_fingerprint: account.trustedFingerprint } : {}),
    },
    secrets: { password: account.password },
    session: null,
  };
}

/**
 * The WebDAV provider (Nextcloud, ownCloud, NAS boxes): a folder on the server, read with the account's
 * password or app token. It only reads: PROPFIND and GET, never a method that changes the server.
 */
import { ProviderError, type CloudProvider, type ProviderState, type RemoteLibrary, type SignInOutcome } from '../provider.ts';
import { accountFromInputs, accountFromState, stateOf } from './account.ts';
import { DavClient, statusError, type DavAccount } from './dav-client.ts';
import { webDavDescriptor } from './descriptor.ts';
import { sortFolderEntries } from './folder-entries.ts';
import { propfind } from './propfind.ts';
import { baseSegments, parseFolder, urlOf } from './remote-paths.ts';
import { WebDavLibrary } from './webdav-library.ts';

export interface WebDavProviderOptions {
  /** A request with no byte moving for this long fails as `unreachable` (default 60 s). */
  idleTimeoutMs?: number;
  /** Folders listed at once (default 4). */
  listConcurrency?: number;
}

export class WebDavProvider implements CloudProvider {
  readonly descriptor = webDavDescriptor;

  constructor(private readonly opts: WebDavProviderOptions = {}) {}

  async signIn(inputs: Record<string, string>, signal: AbortSignal): Promise<SignInOutcome> {
    return this.connect(accountFromInputs(inputs), signal, 'auth_failed');
  }

  /** WebDAV asks no second question. */
  verifyChallenge(): Promise<SignInOutcome> {
    return Promise.reject(new ProviderError('bad_input', 'A WebDAV account has no verification step.', false, { field: 'code' }));
  }

  async reconnect(state: ProviderState, inputs: Record<string, string>, signal: AbortSignal): Promise<SignInOutcome> {
    // A refused stored password means "enter it again"; a refused new one is simply wrong.
    return this.connect(accountFromState(state, inputs), signal, inputs.password ? 'auth_failed' : 'session_expired');
  }

  async checkScope(state: ProviderState, scope: Record<string, string>, signal: AbortSignal): Promise<Record<string, string>> {
    const folder = parseFolder(scope.folder);
    await this.withClient(accountFromState(state), async (client) => {
      const result = await propfind(client, urlOf(client.account.base, folder, true), '0', signal);
      if (!('entries' in result)) throw statusError(result.status, folder.length ? `The folder "${folder.join('/')}"` : 'The address', 'session_expired');
      if (!result.entries[0]?.collection) throw new ProviderError('not_found', `"${folder.join('/')}" is a file, not a folder.`);
    });
    return { folder: folder.join('/') };
  }

  async browse(state: ProviderState, folder: string, signal: AbortSignal): Promise<{ name: string; path: string }[]> {
    const segments = parseFolder(folder);
    return this.withClient(accountFromState(state), async (client) => {
      const base = client.account.base;
      const result = await propfind(client, urlOf(base, segments, true), '1', signal);
      if (!('entries' in result)) throw statusError(result.status, segments.length ? `The folder "${segments.join('/')}"` : 'The address', 'session_expired');
      // Names the listing would refuse cannot be picked either: they are left out.
      const { folders } = sortFolderEntries(result.entries, base, baseSegments(base), segments);
      return folders
        .map((f) => ({ name: f.at(-1)!.normalize('NFC'), path: f.map((s) => s.normalize('NFC')).join('/') }))
        .sort((a, b) => a.name.localeCompare(b.name));
    });
  }

  open(state: ProviderState, scope: Record<string, string>): RemoteLibrary {
    const client = new DavClient(accountFromState(state), this.clientOptions());
    return new WebDavLibrary(client, parseFolder(scope.folder), this.opts.listConcurrency ?? 4);
  }

  /** PROPFIND Depth 0 on the address: the password is accepted and the answer is WebDAV's. */
  private async connect(account: DavAccount, signal: AbortSignal, refused: 'auth_failed' | 'session_expired'): Promise<SignInOutcome> {
    return this.withClient(account, async (client) => {
      const result = await propfind(client, account.base, '0', signal);
      if (!('entries' in result)) {
        if ([401, 403, 404, 410, 429, 502, 503, 504].includes(result.status)) throw statusError(result.status, 'The address', refused);
        throw new ProviderError('protocol', `The address answered as a web server, not a WebDAV server (HTTP ${result.status}). Check the address your server gives for WebDAV.`);
      }
      if (!result.entries[0]?.collection) throw new ProviderError('protocol', 'The address is a file on the server, not a folder.');
      // A server that moved the folder within its own origin (a missing slash, a new path) is kept at the new address.
      return { status: 'connected', state: stateOf({ ...account, base: result.url.pathname.endsWith('/') ? result.url : account.base }) };
    });
  }

  private async withClient<T>(account: DavAccount, use: (client: DavClient) => Promise<T>): Promise<T> {
    const client = new DavClient(account, this.clientOptions());
    try {
      return await use(client);
    } finally {
      client.close();
    }
  }

  private clientOptions() {
    return this.opts.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: this.opts.idleTimeoutMs };
  }
}

/**
 * What an import provider is to the rest of Hearth (features/cloud-import): a source of remote files and the facts
 * it knows about them, reached with a member's credential. Providers are adapters: they speak their service's
 * protocol and nothing else. They never touch the catalog, the staging area's naming, the counters or the report:
 * the import run (features/cloud-import) lists, decides what is new, downloads into staging and hands each file to
 * the one door into the catalog.
 *
 * Three kinds of source implement `RemoteLibrary`:
 * - WebDAV (adapters/cloud/webdav): a folder on a Nextcloud, ownCloud or NAS box;
 * - iCloud Photos (adapters/cloud/icloud): CloudKit records and their resources;
 * - Google Takeout (adapters/cloud/takeout): archive parts already on this machine (no credential: they are opened,
 *   not signed in to).
 *
 * Secrets: `ProviderState.secrets` and `ProviderState.session` are sealed at rest by the feature and never leave the
 * server; a provider must not put a secret in `publicConfig`, an error message or a log line.
 */

/** A form field a client draws (create / reconnect form, challenge form, the remote scope). UI-safe. */
export interface FieldDescriptor {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password' | 'url' | 'select' | 'checkbox' | 'code';
  required: boolean;
  autocomplete?: string;
  help_text?: string;
  options?: { label: string; value: string }[];
}

export interface ProviderDescriptor {
  id: string;
  title: string;
  description: string;
  status: 'enabled' | 'disabled';
  security_note: string;
  form_fields: FieldDescriptor[];
  challenge_fields: FieldDescriptor[];
  /** Fields that choose what to import (WebDAV: the remote folder). Extension of the contract's descriptor. */
  scope_fields: FieldDescriptor[];
}

/** A challenge the person must answer before the credential is connected (iCloud's verification code). */
export interface Challenge {
  type: 'verification_code';
  title: string;
  description: string;
  /** Shown to the person (for example the masked phone number the code went to). Never a secret. */
  params: Record<string, string>;
  fields: FieldDescriptor[];
}

/**
 * What a credential holds. The feature seals `secrets` and `session` at rest; `publicConfig` is shown to clients
 * (server URL, user name, masked Apple ID) and must hold nothing secret.
 */
export interface ProviderState {
  /** Stable identity of the account at the provider (WebDAV: URL + user; iCloud: the Apple ID), for one credential per account. */
  identity: string;
  /** A name to show when the person gave none ("anna@cloud.example.com"). */
  displayName: string;
  publicConfig: Record<string, string>;
  /** What signing in again needs (password, app token). May be empty once a session exists (iCloud keeps no password). */
  secrets: Record<string, string>;
  /** The provider's session (cookies, tokens, trust tokens), JSON-serialisable. */
  session: unknown;
  /** When the provider's session is expected to end (epoch ms), when it says: the UI announces it ahead. */
  sessionExpiresAt?: number | null;
}

export type SignInOutcome =
  | { status: 'connected'; state: ProviderState }
  | { status: 'challenge_required'; state: ProviderState; challenge: Challenge };

/** Why a provider call failed. `code` is stable (the feature maps it to a problem type); `message` is for people. */
export type ProviderErrorCode =
  /** Wrong user name, password or code. */
  | 'auth_failed'
  /** The stored session is no longer accepted: reconnect with the password. */
  | 'session_expired'
  /** The service cannot be reached (DNS, refused, timeout, dropped). */
  | 'unreachable'
  /** The certificate is not trusted (`details.fingerprint`: its SHA-256, to offer an explicit trust). */
  | 'tls_untrusted'
  /** The service sent us to another host: not followed (credentials would go there). */
  | 'redirect_refused'
  /** The service answered, but not as this provider expects (not a WebDAV server, a changed API). */
  | 'protocol'
  /** The service says it is unavailable now (503, rate limit): retry later. */
  | 'service_unavailable'
  /** iCloud: web access to iCloud data is off, or Advanced Data Protection is on. */
  | 'web_access_off'
  /** iCloud: the account can receive codes only on a device this flow cannot use. */
  | 'no_code_delivery'
  /** The remote item or folder does not exist (any more). */
  | 'not_found'
  /** The form's inputs are missing or malformed (`details.field` names the field). */
  | 'bad_input';

export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    readonly retryable = false,
    readonly details: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A time as the source reported it: the instant, and the zone's offset when it said. */
export interface RemoteTime {
  time: number;
  offsetMinutes: number | null;
}

/** What a source says of an item besides its bytes (all optional: absent = the source does not say). */
export interface RemoteFacts {
  capturedAt?: RemoteTime;
  /** null = the source says "no place". */
  gps?: { latitude: number; longitude: number } | null;
  description?: string;
  favorite?: boolean;
  /** Albums the item is in at the source. */
  albumNames?: string[];
  /** The remote file's modification time (the capture time of last resort). */
  fileModified?: RemoteTime | null;
  /** Archived at the source (Takeout `archived`; iCloud hidden). */
  archived?: boolean;
  /** In the source's trash (Takeout `trashed`): imported into the Trash. */
  trashed?: boolean;
  /** People named on the item (Takeout `people[].name`). */
  people?: string[];
  /**
   * This item is an edited copy of the item with this id (Takeout `-edited` and its translations). The run pairs
   * the two in the catalog once both are in (features/cloud-import/run-executor.ts `pairUp`): one media item, the
   * original first. (iCloud's adjusted renders, `resJPEGFull`, would be one; the iCloud adapter does not fetch them.)
   */
  editOf?: string;
  /**
   * This item belongs with the item with this id as one capture (a Live Photo's video: Takeout `IMG_1.MP4` beside
   * `IMG_1.HEIC`, iCloud `resOriginalVidCompl`; iCloud's RAW alternative): paired like `editOf`, as the item's motion
   * (a video) or its RAW/alternative (a photo).
   */
  companionOf?: string;
}

/** One file at the source. */
export interface RemoteItem {
  /** Stable id at the provider (WebDAV: the path under the scope; iCloud: record name + resource; Takeout: entry path). */
  id: string;
  /** Changes when the bytes change: an ETag, or `size:mtime`. The run fetches an item again only when it changed. */
  version: string;
  /** The file's name at the source, as given (the feature checks it: no separators, NUL or control characters). */
  name: string;
  /** Folders from the scope's root down to the item, for the report and album names. */
  folder: string[];
  /** Size in bytes when the source says. */
  size: number | null;
  facts: RemoteFacts;
}

/** An item the listing found but cannot offer (unreadable folder, broken sidecar): the run reports it. */
export interface ListingProblem {
  problem: true;
  /** What it concerns (a folder or file path at the source). */
  where: string;
  reason: string;
}

export interface DownloadOptions {
  /** Bytes already in `dest` from an earlier attempt: the provider continues from there (HTTP Range) when it can. */
  offset: number;
  signal: AbortSignal;
  /** Called as bytes arrive (total bytes in `dest`). */
  onProgress?: (bytes: number) => void;
}

/** What a source offers once opened with a credential's state and a scope. */
export interface RemoteLibrary {
  /**
   * Every item in scope, in an order the provider chooses. A folder or record it cannot read is yielded as a
   * ListingProblem and the listing goes on; a failure that ends the listing (auth, unreachable) throws ProviderError.
   */
  list(signal: AbortSignal): AsyncIterable<RemoteItem | ListingProblem>;
  /**
   * Writes the item's bytes to `dest`, appending from `opts.offset` when the provider can resume (else it truncates
   * and starts over). Resolves when the whole item is there; throws ProviderError otherwise (`retryable` when an
   * attempt later may succeed). Answers from other hosts than the service's are refused (`redirect_refused`).
   */
  download(item: RemoteItem, dest: string, opts: DownloadOptions): Promise<void>;
  /** Releases connections and temporary state. */
  close(): Promise<void>;
}

/** A provider that members sign in to (WebDAV, iCloud). */
export interface CloudProvider {
  readonly descriptor: ProviderDescriptor;
  /** Checks the form's inputs and signs in. Throws ProviderError. */
  signIn(inputs: Record<string, string>, signal: AbortSignal): Promise<SignInOutcome>;
  /** Answers a challenge of `signIn` or `reconnect`. Throws ProviderError (`auth_failed` for a wrong code). */
  verifyChallenge(state: ProviderState, inputs: Record<string, string>, signal: AbortSignal): Promise<SignInOutcome>;
  /**
   * Connects again: with new inputs (a password) when given, else reusing the stored session (and stored secrets).
   * Throws ProviderError (`session_expired` when the stored session is refused and no password was given).
   */
  reconnect(state: ProviderState, inputs: Record<string, string>, signal: AbortSignal): Promise<SignInOutcome>;
  /** Validates a scope (the scope_fields' values) and says what it is, for the run and the status. Throws ProviderError (`bad_input`, `not_found`). */
  checkScope(state: ProviderState, scope: Record<string, string>, signal: AbortSignal): Promise<Record<string, string>>;
  /**
   * The folders directly inside `folder` at the source ('' = the top), for a folder picker. Only for providers whose
   * scope is a folder (WebDAV); absent otherwise. Throws ProviderError.
   */
  browse?(state: ProviderState, folder: string, signal: AbortSignal): Promise<{ name: string; path: string }[]>;
  /** Opens the source for a run. The state may be refreshed while it runs (`onState` gives the new one to keep). */
  open(state: ProviderState, scope: Record<string, string>, onState?: (state: ProviderState) => void): RemoteLibrary;
}

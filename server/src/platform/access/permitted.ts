/**
 * Ids that the access layer has checked for one actor and one permission. The brand exists only for the
 * type checker: a service method or store read that takes a `PermittedAssetId` cannot be called with a
 * plain string from a request, so forgetting the check does not compile.
 */
declare const permitted: unique symbol;

/** What can be checked, and the type of its id in the catalog. */
export interface AccessKinds {
  asset: string;
  album: number;
  upload_session: string;
  upload_receipt: string;
  partner_share: number;
  share_link: number;
  duplicate_group: string;
  asset_correction: string;
  person: number;
  face: number;
  photo_event: string;
  cloud_credential: string;
  import_run: string;
  takeout_upload: string;
  host_action: string;
  agent_thread: string;
  agent_pin: string;
  agent_effect: string;
}
export type AccessKind = keyof AccessKinds;

/**
 * - `read`: see it, its files and its metadata (and like or rate it: marks are per member).
 * - `contribute`: add one's own assets to it and take out what one added (album contributors).
 * - `change`: edit, trash, add to or remove from things.
 * - `own`: what only the owner may ever do, whatever is shared (choose it as their avatar, share it).
 * What each needs per kind: rules.ts.
 */
export type Permission = 'read' | 'contribute' | 'change' | 'own';

export type Permitted<K extends AccessKind> = AccessKinds[K] & { readonly [permitted]: K };
export type PermittedAssetId = Permitted<'asset'>;
export type PermittedAlbumId = Permitted<'album'>;
export type PermittedUploadSessionId = Permitted<'upload_session'>;
export type PermittedReceiptId = Permitted<'upload_receipt'>;
export type PermittedPersonId = Permitted<'person'>;
export type PermittedFaceId = Permitted<'face'>;
export type PermittedPhotoEventId = Permitted<'photo_event'>;

/**
 * The rows of one kind an actor may see, as a condition for a store's list query (lists that are not
 * a batch of given ids, such as "my active upload sessions"). Made only by `Access.scope`, so a list
 * method that takes one cannot be called with an ownership condition written elsewhere.
 * `sql` names the list's table by the alias asked for and needs `params` bound beside the store's own.
 */
export interface AccessScope<K extends AccessKind> {
  readonly kind: K;
  readonly sql: string;
  readonly params: { readonly access_user: number };
  readonly [permitted]: K;
}

/** A public link as the access layer needs it: who made it and what it shares. */
export interface LinkScope {
  linkId: number;
  createdBy: number;
  albumId: number | null;
}

/**
 * Work done for the catalog rather than for a member (the media pipeline, jobs, the watcher, start-up
 * repair) is allowed to touch any row. It says so explicitly, so every such place can be found with one
 * search.
 */
export function forSystem<K extends AccessKind>(_kind: K, id: AccessKinds[K]): Permitted<K> {
  return id as Permitted<K>;
}

export { Access, type Requester } from './access.ts';
export { forSystem, type AccessKind, type AccessScope, type LinkScope, type Permission, type Permitted, type PermittedAlbumId, type PermittedAssetId, type PermittedFaceId, type PermittedPersonId, type PermittedPhotoEventId, type PermittedReceiptId, type PermittedUploadSessionId } from './permitted.ts';

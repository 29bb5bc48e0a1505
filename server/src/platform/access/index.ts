export { Access, type Requester } from './access.ts';
export { forSystem, type AccessKind, type LinkScope, type Permission, type Permitted, type PermittedAlbumId, type PermittedAssetId } from './permitted.ts';

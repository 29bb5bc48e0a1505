/** The WebDAV import provider (Nextcloud, ownCloud, NAS boxes). */
export { WebDavProvider, type WebDavProviderOptions } from './webdav-provider.ts';
export { webDavDescriptor, WEBDAV_PROVIDER_ID } from './descriptor.ts';

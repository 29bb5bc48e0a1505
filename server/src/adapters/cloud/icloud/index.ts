/** The iCloud Photos import provider (adapters/cloud/icloud): what the cloud-import feature uses. */
export { ICloudProvider, type ICloudProviderOptions } from './icloud-provider.ts';
export { APPLE_ENDPOINTS, type ICloudEndpoints } from './endpoints.ts';
export { ICLOUD_DESCRIPTOR } from './descriptor.ts';

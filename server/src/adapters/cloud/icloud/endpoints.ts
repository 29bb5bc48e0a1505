/**
 * The addresses of Apple's services. The defaults are Apple's; tests point them at a replay server on
 * loopback. The CloudKit address is not here by default: accountLogin says which one serves the account.
 */
import type { ICloudDomain } from './session.ts';

export interface ICloudEndpoints {
  /** idmsa sign-in (`…/appleauth/auth`), per domain. */
  auth: Record<ICloudDomain, string>;
  /** setup service (`…/setup/ws/1`), per domain. */
  setup: Record<ICloudDomain, string>;
  /** The web origin Apple expects in Origin/Referer, per domain. */
  home: Record<ICloudDomain, string>;
  /** Replaces the CloudKit address accountLogin returns (tests only). */
  ckdatabasews: string | null;
  /** Hosts (or parent domains, with a leading dot) downloads may come from. */
  contentHosts: string[];
}

export const APPLE_ENDPOINTS: ICloudEndpoints = {
  auth: { com: 'https://idmsa.apple.com/appleauth/auth', cn: 'https://idmsa.apple.com.cn/appleauth/auth' },
  setup: { com: 'https://setup.icloud.com/setup/ws/1', cn: 'https://setup.icloud.com.cn/setup/ws/1' },
  home: { com: 'https://www.icloud.com', cn: 'https://www.icloud.com.cn' },
  ckdatabasews: null,
  contentHosts: ['.icloud-content.com', '.icloud-content.com.cn'],
};

export function resolveEndpoints(partial: Partial<ICloudEndpoints> = {}): ICloudEndpoints {
  return { ...APPLE_ENDPOINTS, ...partial };
}

/** True when `url` is on one of the content hosts (exact host[:port], or a subdomain of a `.domain`). */
export function isContentHost(endpoints: ICloudEndpoints, url: URL): boolean {
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return endpoints.contentHosts.some((h) => {
    const want = h.toLowerCase();
    return want.startsWith('.') ? hostname.endsWith(want) : host === want;
  });
}

/**
 * Reading accountLogin / validate answers: whether the web session is connected, whether it still needs a
 * verification code, and whether Apple lets the web reach the photos at all (web access and Advanced Data
 * Protection, which icloudpd's users meet as ACCESS_DENIED / "private db access disabled" later on).
 */
import { ProviderError } from '../provider.ts';

export type AccountData = Record<string, unknown>;

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export const WEB_ACCESS_HELP =
  'On an iPhone or iPad open Settings → [your name] → iCloud, turn on "Access iCloud Data on the Web" and turn off "Advanced Data Protection", then sign in again.';

export function webAccessOff(reason: string): ProviderError {
  return new ProviderError('web_access_off', `${reason} ${WEB_ACCESS_HELP}`);
}

/** Throws web_access_off when the account's answer says the web cannot read its photos. */
export function checkWebAccess(data: AccountData): void {
  const ds = record(data.dsInfo);
  if (ds.isWebAccessAllowed === false) throw webAccessOff('Access to iCloud data on the web is turned off for this Apple Account.');
  if (data.iCDPEnabled === true || ds.iCDPEnabled === true || data.i_cdp_enabled === true) {
    throw webAccessOff('Advanced Data Protection is on for this Apple Account, so iCloud Photos cannot be read from the web.');
  }
}

/** Apple still wants a verification code before this browser session counts as trusted. */
export function needsCode(data: AccountData): boolean {
  const ds = record(data.dsInfo);
  const version = typeof ds.hsaVersion === 'number' ? ds.hsaVersion : 0;
  return data.hsaChallengeRequired === true || (version >= 2 && data.hsaTrustedBrowser !== true);
}

/** The CloudKit address the account is served by. */
export function cloudKitUrl(data: AccountData): string | null {
  const ws = record(record(data.webservices).ckdatabasews);
  return typeof ws.url === 'string' && ws.status !== 'inactive' ? ws.url : null;
}

export function dsidOf(data: AccountData): string | null {
  const dsid = record(data.dsInfo).dsid;
  return typeof dsid === 'string' || typeof dsid === 'number' ? String(dsid) : null;
}

/** Apple's answer when the account belongs to the other region's service (iCloud China vs. the rest). */
export function otherRegion(data: AccountData): string | null {
  return typeof data.domainToUse === 'string' ? data.domainToUse : null;
}

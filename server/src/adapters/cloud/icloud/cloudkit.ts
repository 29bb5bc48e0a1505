/**
 * The photo library in CloudKit (the `ckdatabasews` service accountLogin names), read with the queries
 * icloud.com's Photos app makes: the indexing state, the albums (CPLAlbumByPositionLive), and the
 * asset+master listings paged by `startRank`. Read-only: nothing here modifies a record.
 */
import { ProviderError } from '../provider.ts';
import { webAccessOff } from './account.ts';
import { jsonOf, type AppleHttp } from './apple-http.ts';
import type { ICloudEndpoints } from './endpoints.ts';
import { decodeText, type CkRecord } from './records.ts';
import type { ICloudSession } from './session.ts';

/** Every photo and video that is neither hidden nor deleted; then the hidden ones. */
export const ALL_ASSETS = 'CPLAssetAndMasterByAssetDateWithoutHiddenOrDeleted';
export const HIDDEN_ASSETS = 'CPLAssetAndMasterHiddenByAssetDate';
const ALBUM_ASSETS = 'CPLContainerRelationLiveByAssetDate';

/** The primary library's zone. */
const ZONE = { zoneName: 'PrimarySync' };

/** Masters per page (CloudKit answers up to twice as many records: asset + master). */
const PAGE = 100;

/** The web client's build numbers, sent with every CloudKit call as icloud.com does. */
const CLIENT_BUILD = { clientBuildNumber: '2522Project44', clientMasteringNumber: '2522B2' };

/** The fields a listing asks for: the files, and the facts the import keeps. */
const DESIRED_KEYS = [
  'recordName', 'recordType', 'recordChangeTag', 'masterRef', 'itemType', 'filenameEnc',
  'resOriginalRes', 'resOriginalFileType', 'resOriginalAltRes', 'resOriginalAltFileType', 'resOriginalVidComplRes', 'resOriginalVidComplFileType',
  'assetDate', 'timeZoneOffset', 'isFavorite', 'isHidden', 'isDeleted', 'captionEnc', 'locationEnc', 'locationLatitude', 'locationLongitude',
];

export interface Album {
  id: string;
  name: string;
}

export interface Page {
  pairs: { master: CkRecord; asset: CkRecord | undefined }[];
}

function records(body: Record<string, unknown>): CkRecord[] {
  const list = body.records;
  if (!Array.isArray(list)) throw new ProviderError('protocol', 'iCloud Photos answered a query without records.');
  return list.filter((r): r is CkRecord => !!r && typeof r === 'object' && typeof (r as CkRecord).recordName === 'string' && typeof (r as CkRecord).recordType === 'string' && !!(r as CkRecord).fields);
}

export class CloudKit {
  constructor(
    private readonly session: ICloudSession,
    private readonly http: AppleHttp,
    private readonly endpoints: ICloudEndpoints,
  ) {}

  private url(op: string): string {
    if (!this.session.ckdatabasews) throw new ProviderError('session_expired', 'The iCloud session does not name its photo service: sign in again.');
    const params = new URLSearchParams({ ...CLIENT_BUILD, clientId: this.session.clientId, ...(this.session.dsid ? { dsid: this.session.dsid } : {}), remapEnums: 'True', getCurrentSyncToken: 'True' });
    return `${this.session.ckdatabasews.replace(/\/+$/, '')}/database/1/com.apple.photos.cloud/production/private/${op}?${params}`;
  }

  /** One CloudKit call; Apple's refusals become the provider's errors (session over, web access off). */
  private async call(op: string, body: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    const home = this.endpoints.home[this.session.domain];
    const answer = await this.http.call(this.url(op), { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'text/plain', Origin: home, Referer: `${home}/` }, signal }, 'iCloud Photos');
    const json = jsonOf(answer);
    const code = typeof json?.serverErrorCode === 'string' ? json.serverErrorCode : typeof json?.errorCode === 'string' ? json.errorCode : null;
    if (code === 'ACCESS_DENIED') throw webAccessOff('Apple refuses the web access to this photo library ("private db access disabled").');
    if (code === 'ZONE_NOT_FOUND' || code === 'AUTHENTICATION_FAILED') throw webAccessOff('iCloud Photos is not set up for the web on this account.');
    // 423: "Missing PCS cookies", what Advanced Data Protection answers to a web session.
    if (answer.status === 423) throw webAccessOff('Apple keeps this library end-to-end encrypted from the web (Advanced Data Protection).');
    if (answer.status === 401 || answer.status === 421 || answer.status === 450 || code === 'AUTHENTICATION_REQUIRED') {
      throw new ProviderError('session_expired', 'Apple no longer accepts the iCloud session: sign in again.');
    }
    if (answer.status === 403) throw webAccessOff('Apple refuses the web access to this photo library.');
    if (answer.status >= 400 || !json) throw new ProviderError('protocol', `iCloud Photos answered HTTP ${answer.status}${code ? ` (${code})` : ''}.`, answer.status >= 500);
    return json;
  }

  /** Refuses a library Apple is still indexing (its listings would be incomplete). */
  async checkIndexing(signal: AbortSignal): Promise<void> {
    const body = await this.call('records/query', { query: { recordType: 'CheckIndexingState' }, zoneID: ZONE }, signal);
    const state = records(body)[0]?.fields.state?.value;
    if (state !== 'FINISHED') {
      throw new ProviderError('service_unavailable', 'iCloud is still preparing this photo library for the web: try again later.', true);
    }
  }

  /** The person's albums (not the root folders, not deleted ones, not folders of albums). */
  async albums(signal: AbortSignal): Promise<Album[]> {
    const body = await this.call('records/query', { query: { recordType: 'CPLAlbumByPositionLive' }, zoneID: ZONE }, signal);
    const out: Album[] = [];
    for (const r of records(body)) {
      if (r.recordName === '----Root-Folder----' || r.recordName === '----Project-Root-Folder----' || r.deleted) continue;
      if (r.fields.isDeleted?.value === 1 || r.fields.isDeleted?.value === true) continue;
      // Apple stores names as the Mac typed them (decomposed: "Jo\u0308rg"); the library compares composed names.
      const name = decodeText(r.fields.albumNameEnc)?.normalize('NFC');
      if (name) out.push({ id: r.recordName, name });
    }
    return out;
  }

  /** The pages of a listing (all assets, hidden assets, or one album's), until CloudKit has no more. */
  async *pages(listType: string, albumId: string | null, signal: AbortSignal): AsyncGenerator<Page> {
    let rank = 0;
    for (;;) {
      signal.throwIfAborted();
      const filterBy: unknown[] = [
        { fieldName: 'startRank', fieldValue: { type: 'INT64', value: rank }, comparator: 'EQUALS' },
        { fieldName: 'direction', fieldValue: { type: 'STRING', value: 'ASCENDING' }, comparator: 'EQUALS' },
      ];
      if (albumId) filterBy.push({ fieldName: 'parentId', comparator: 'EQUALS', fieldValue: { type: 'STRING', value: albumId } });
      const body = await this.call('records/query', { query: { filterBy, recordType: albumId ? ALBUM_ASSETS : listType }, resultsLimit: PAGE * 2, desiredKeys: DESIRED_KEYS, zoneID: ZONE }, signal);
      const list = records(body);
      const assets = new Map<string, CkRecord>();
      for (const r of list) {
        const ref = (r.fields.masterRef?.value as { recordName?: unknown } | undefined)?.recordName;
        if (r.recordType === 'CPLAsset' && typeof ref === 'string') assets.set(ref, r);
      }
      const masters = list.filter((r) => r.recordType === 'CPLMaster');
      if (masters.length) yield { pairs: masters.map((master) => ({ master, asset: assets.get(master.recordName) })) };
      if (!masters.length || typeof body.continuationMarker !== 'string') return;
      rank += masters.length;
    }
  }

  /** A master record looked up by name: a fresh download address for a file listed by an earlier run. */
  async master(recordName: string, signal: AbortSignal): Promise<{ master: CkRecord } | null> {
    const body = await this.call('records/lookup', { records: [{ recordName }], zoneID: ZONE }, signal);
    const found = records(body).find((r) => r.recordName === recordName && r.recordType === 'CPLMaster');
    return found ? { master: found } : null;
  }
}

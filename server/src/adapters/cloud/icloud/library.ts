/**
 * An opened iCloud Photos library for one import run: the session is checked first (validate, else
 * accountLogin with the stored tokens), then the albums are read so each file carries its album names,
 * then every photo and video (the hidden ones last, marked archived) is listed page by page.
 */
import { ProviderError, type DownloadOptions, type ListingProblem, type RemoteItem, type RemoteLibrary } from '../provider.ts';
import { needsCode } from './account.ts';
import { AppleHttp, type FetchLike } from './apple-http.ts';
import { ALL_ASSETS, CloudKit, HIDDEN_ASSETS } from './cloudkit.ts';
import { downloadTo } from './download.ts';
import type { ICloudEndpoints } from './endpoints.ts';
import { filesOf, RESOURCES, type ResourceKey, type ResourceLocation } from './records.ts';
import type { ICloudSession } from './session.ts';
import { AppleSignIn } from './sign-in.ts';

export const SESSION_OVER = 'Apple no longer accepts the stored iCloud session: sign in again with the password.';

/**
 * A part of the library CloudKit answered oddly (an album, the hidden photos): reported on the run, and the
 * listing goes on. Anything that ends the listing (session, web access, network, abort) is thrown on.
 */
function unreadable(e: unknown, where: string, consequence: string): ListingProblem {
  if (!(e instanceof ProviderError) || (e.code !== 'protocol' && e.code !== 'not_found')) throw e;
  return { problem: true, where, reason: `${e.message} (${consequence})` };
}

export class ICloudLibrary implements RemoteLibrary {
  private readonly http: AppleHttp;
  private readonly cloudKit: CloudKit;
  /** Download addresses of the files this run listed, by item id. */
  private readonly locations = new Map<string, ResourceLocation>();
  private connected = false;

  constructor(
    private readonly session: ICloudSession,
    private readonly endpoints: ICloudEndpoints,
    private readonly fetchImpl: FetchLike,
    private readonly onSession?: (session: ICloudSession) => void,
  ) {
    this.http = new AppleHttp(session, fetchImpl);
    this.cloudKit = new CloudKit(session, this.http, endpoints);
  }

  /** Makes sure Apple still accepts the session (and refreshes its cookies) before the first CloudKit call. */
  private async connect(signal: AbortSignal): Promise<void> {
    if (this.connected) return;
    const flow = new AppleSignIn(this.session, this.endpoints, this.http);
    const data = (await flow.validate(signal)) ?? (await flow.accountLogin(signal));
    if (!data || needsCode(data)) throw new ProviderError('session_expired', SESSION_OVER);
    this.connected = true;
    this.onSession?.(this.session);
  }

  async *list(signal: AbortSignal): AsyncGenerator<RemoteItem | ListingProblem> {
    await this.connect(signal);
    await this.cloudKit.checkIndexing(signal);
    const albumsOf = new Map<string, string[]>();
    for (const album of await this.cloudKit.albums(signal)) {
      try {
        for await (const page of this.cloudKit.pages(ALL_ASSETS, album.id, signal)) {
          for (const { master } of page.pairs) {
            const names = albumsOf.get(master.recordName) ?? [];
            if (!names.includes(album.name)) names.push(album.name);
            albumsOf.set(master.recordName, names);
          }
        }
      } catch (e) {
        yield unreadable(e, `Album "${album.name}"`, 'its photos are imported without this album name');
      }
    }
    const seen = new Set<string>();
    for (const [listType, hidden] of [
      [ALL_ASSETS, false],
      [HIDDEN_ASSETS, true],
    ] as const) {
      try {
        for await (const page of this.cloudKit.pages(listType, null, signal)) {
          for (const { master, asset } of page.pairs) {
            // Pages are ranked by date: a photo added while listing can shift one into the next page twice.
            if (seen.has(master.recordName)) continue;
            seen.add(master.recordName);
            for (const file of filesOf(master, asset, [...(albumsOf.get(master.recordName) ?? [])].sort(), hidden)) {
              if ('problem' in file) {
                yield file;
                continue;
              }
              this.locations.set(file.item.id, file.location);
              yield file.item;
            }
          }
        }
      } catch (e) {
        // The main listing failing fails the run (it is retried); the hidden photos are reported and the run goes on.
        if (!hidden) throw e;
        yield unreadable(e, 'Hidden photos', 'the hidden photos were not all listed');
      }
    }
    this.onSession?.(this.session);
  }

  async download(item: RemoteItem, dest: string, opts: DownloadOptions): Promise<void> {
    const location = this.locations.get(item.id) ?? (await this.lookUp(item, opts.signal));
    await downloadTo(this.fetchImpl, this.endpoints, { url: location.url, size: item.size ?? location.size }, dest, opts);
  }

  /** A file listed by an earlier run: its record is read again for a current download address. */
  private async lookUp(item: RemoteItem, signal: AbortSignal): Promise<ResourceLocation> {
    const sep = item.id.lastIndexOf(':');
    const recordName = item.id.slice(0, sep);
    const key = item.id.slice(sep + 1) as ResourceKey;
    if (sep <= 0 || !RESOURCES.includes(key)) throw new ProviderError('not_found', 'This is not an iCloud Photos item id.');
    await this.connect(signal);
    const found = await this.cloudKit.master(recordName, signal);
    const file = found && filesOf(found.master, undefined, [], false).find((f) => !('problem' in f) && f.item.id === item.id);
    if (!file || 'problem' in file) throw new ProviderError('not_found', 'iCloud no longer has this file.');
    return file.location;
  }

  async close(): Promise<void> {
    this.locations.clear();
  }
}

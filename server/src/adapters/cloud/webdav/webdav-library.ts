/** One run's view of a WebDAV folder: its listing and its downloads over one keep-alive connection pool. */
import type { DownloadOptions, ListingProblem, RemoteItem, RemoteLibrary } from '../provider.ts';
import type { DavClient } from './dav-client.ts';
import { downloadFile } from './file-download.ts';
import { walkFolders } from './folder-walk.ts';
import { urlOf } from './remote-paths.ts';

export class WebDavLibrary implements RemoteLibrary {
  /**
   * Items whose server spelling differs from their (NFC) id: a download must ask for the bytes the server
   * named. Only those are kept, so a large listing costs nothing here.
   */
  private readonly spelledOtherwise = new Map<string, string[]>();

  constructor(
    private readonly client: DavClient,
    private readonly scope: readonly string[],
    private readonly concurrency: number,
  ) {}

  list(signal: AbortSignal): AsyncIterable<RemoteItem | ListingProblem> {
    return walkFolders(this.client, this.scope, signal, {
      concurrency: this.concurrency,
      onItemPath: (id, segments) => {
        if (segments.join('/') !== id) this.spelledOtherwise.set(id, segments);
      },
    });
  }

  download(item: RemoteItem, dest: string, opts: DownloadOptions): Promise<void> {
    const segments = this.spelledOtherwise.get(item.id) ?? item.id.split('/');
    return downloadFile(this.client, urlOf(this.client.account.base, [...this.scope, ...segments], false), item, dest, opts);
  }

  close(): Promise<void> {
    this.client.close();
    return Promise.resolve();
  }
}

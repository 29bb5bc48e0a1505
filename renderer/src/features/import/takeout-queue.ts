/**
 * The Takeout parts this page is uploading, one after another (one disk, one line: sending two parts at once would
 * only make both slower), with each part's bytes sent, state and reason when it failed. A small store the card reads
 * with useSyncExternalStore, so a part's progress re-renders without the card holding the loop.
 *
 * Leaving the page stops the loop but keeps the server's unfinished uploads: adding the same file again goes on where
 * it stopped (createTakeoutUpload answers the unfinished upload). "Stop" removes them on the server. A file added that
 * matches an unfinished upload the card listed (same name and size) starts its bar at the bytes the server has, not
 * at 0: the member sees it go on, and the bar never runs backwards when the server's answer comes.
 */
import { importProblemWords } from './problem-words';
import { isAbort } from './takeout-transport';
import { cancelUpload, uploadPart } from './takeout-upload';

export type PartState = 'waiting' | 'uploading' | 'done' | 'failed';

export interface PartItem {
  key: string;
  file: File;
  repositoryId: string;
  sent: number;
  state: PartState;
  error: string | null;
  uploadId: string | null;
  /** Where the whole part is in the repository (once done). */
  partPath: string | null;
}

/** What the queue needs of an unfinished upload on the server (listTakeoutUploads). */
export interface ResumableUpload {
  upload_id: string;
  repository_id: string;
  filename: string;
  size: number;
  received: number;
}

/** Names the server takes as Takeout parts (takeout-source.ts): anything else is left out before sending. */
export const TAKEOUT_PART = /^takeout-.+\.(zip|tgz|tar\.gz)$/i;

let nextKey = 0;

export class TakeoutQueue {
  private items: PartItem[] = [];
  private readonly listeners = new Set<() => void>();
  private controller: AbortController | null = null;
  private running = false;

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = () => this.items;

  /**
   * Queues the files (a file already queued and not failed is not queued twice) and starts sending. `unfinished`: the
   * member's unfinished uploads into this repository known to the page, to start a matching file's bar where it is.
   */
  add(files: readonly File[], repositoryId: string, unfinished: readonly ResumableUpload[] = []): void {
    const fresh = files.filter((f) => !this.items.some((i) => i.file.name === f.name && i.file.size === f.size && i.state !== 'failed'));
    const resumed = (file: File) => unfinished.find((u) => u.repository_id === repositoryId && u.filename === file.name && u.size === file.size);
    this.items = [
      ...this.items.filter((i) => !(i.state === 'failed' && fresh.some((f) => f.name === i.file.name))),
      ...fresh.map((file) => {
        const upload = resumed(file);
        return { key: `part-${nextKey++}`, file, repositoryId, sent: upload?.received ?? 0, state: 'waiting' as const, error: null, uploadId: upload?.upload_id ?? null, partPath: null };
      }),
    ];
    this.emit();
    void this.run();
  }

  retry(key: string): void {
    this.patch(key, { state: 'waiting', error: null });
    void this.run();
  }

  /** Stops sending; with `forget`, the unfinished parts are removed here and on the server (settled when they are). */
  async stop(forget: boolean): Promise<void> {
    this.controller?.abort();
    if (!forget) return;
    const cancels = this.items.filter((i) => i.state !== 'done' && i.uploadId).map((i) => cancelUpload(i.uploadId!));
    this.items = this.items.filter((i) => i.state === 'done');
    this.emit();
    await Promise.all(cancels);
  }

  /** Forgets the finished parts (after they were imported, or to start over). */
  clear(): void {
    this.items = this.items.filter((i) => i.state !== 'done');
    this.emit();
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const controller = (this.controller = new AbortController());
    try {
      for (let item = this.next(); item && !controller.signal.aborted; item = this.next()) {
        const key = item.key;
        this.patch(key, { state: 'uploading' });
        try {
          const done = await uploadPart(item.file, item.repositoryId, (p) => this.patch(key, { sent: p.sent, uploadId: p.uploadId }), controller.signal);
          this.patch(key, { state: 'done', sent: item.file.size, partPath: done.part_path });
        } catch (e) {
          if (isAbort(e)) this.patch(key, { state: 'waiting' });
          else this.patch(key, { state: 'failed', error: importProblemWords(e) });
        }
      }
    } finally {
      this.running = false;
    }
  }

  private next(): PartItem | undefined {
    return this.items.find((i) => i.state === 'waiting');
  }

  private patch(key: string, change: Partial<PartItem>): void {
    this.items = this.items.map((i) => (i.key === key ? { ...i, ...change } : i));
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

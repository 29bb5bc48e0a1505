/**
 * Follows upload receipts to their final state over ONE event stream (streamUploadStatus) for all
 * the receipts being waited on: browsers allow about six connections per server over HTTP/1.1, and
 * a stream per file would starve the chunk uploads and thumbnails. When a receipt is added the
 * stream is reopened with the new set (the server sends the current states first, so nothing is
 * missed). If the stream fails, one getUploadStatus poll answers instead and the stream is retried
 * with a growing pause.
 */
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { readEventStream } from '../../api/event-stream';
import { sleep } from './transport';

export type ReceiptState = components['schemas']['UploadReceiptState'];
type Listener = (state: ReceiptState) => void;

/** The abort reason of a stream closed to be reopened with more receipts (not a failure). */
const REOPEN = 'reopen';
/** The server answers at most 100 receipts per request. */
const MAX_IDS = 100;
/** Streams in a row in which a receipt never appeared: the server does not know it. */
const UNKNOWN_AFTER = 3;

export class ReceiptFollower {
  private readonly listeners = new Map<string, Listener>();
  private readonly absent = new Map<string, number>();
  private current: AbortController | null = null;
  private running = false;
  private reopenTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  /** Calls `listener` with each new state of the receipt until a terminal one. Returns an unfollow function. */
  follow(receiptId: string, listener: Listener): () => void {
    this.listeners.set(receiptId, listener);
    this.absent.delete(receiptId);
    if (this.running) {
      // Gather additions that arrive together (a batch of files finishing) into one reopen. A
      // stream opened meanwhile already includes them and cancels the timer.
      clearTimeout(this.reopenTimer);
      this.reopenTimer = setTimeout(() => this.current?.abort(REOPEN), 250);
    } else void this.loop();
    return () => {
      this.listeners.delete(receiptId);
      this.absent.delete(receiptId);
    };
  }

  stop(): void {
    this.stopped = true;
    this.listeners.clear();
    clearTimeout(this.reopenTimer);
    this.current?.abort();
  }

  private dispatch(operations: ReceiptState[], asked: string[]): void {
    const seen = new Set(operations.map((o) => o.receipt_id));
    for (const op of operations) {
      const listener = this.listeners.get(op.receipt_id);
      if (!listener) continue;
      if (op.terminal) this.listeners.delete(op.receipt_id);
      listener(op);
    }
    for (const id of asked) {
      if (seen.has(id) || !this.listeners.has(id)) continue;
      const n = (this.absent.get(id) ?? 0) + 1;
      this.absent.set(id, n);
      if (n >= UNKNOWN_AFTER) {
        const listener = this.listeners.get(id)!;
        this.listeners.delete(id);
        listener({
          receipt_id: id,
          file_name: '',
          status: 'failed',
          success: false,
          terminal: true,
          problem: { type: 'about:blank', title: 'Not found', status: 404, detail: 'Hearth no longer knows this upload.', code: 'receipt_not_found', retryable: false },
          asset_id: null,
          content_hash: null,
          size: null,
          updated_at: new Date().toISOString(),
        });
      }
    }
  }

  private async loop(): Promise<void> {
    this.running = true;
    let failures = 0;
    try {
      while (this.listeners.size > 0 && !this.stopped) {
        clearTimeout(this.reopenTimer);
        const ids = [...this.listeners.keys()].slice(0, MAX_IDS);
        const seen = new Set<string>();
        const ac = new AbortController();
        this.current = ac;
        try {
          const url = `/api/v1/uploads/receipts/stream?receipt_ids=${encodeURIComponent(ids.join(','))}`;
          await readEventStream(
            url,
            (event, data) => {
              if (event !== 'receipts') return;
              const ops = (data as { operations?: ReceiptState[] }).operations ?? [];
              for (const o of ops) seen.add(o.receipt_id);
              this.dispatch(ops, []);
            },
            ac.signal,
          );
          failures = 0;
          this.dispatch([], ids.filter((id) => !seen.has(id)));
        } catch (e) {
          if (this.stopped) return;
          if (ac.signal.reason === REOPEN) continue;
          failures++;
          try {
            const r = await request(api.GET('/api/v1/uploads/receipts', { params: { query: { receipt_ids: ids.join(',') } } }));
            this.dispatch(r.operations, ids);
          } catch {
            /* offline: wait and try again */
          }
          await sleep(Math.min(1_000 * 2 ** Math.min(failures, 4), 15_000)).catch(() => undefined);
          continue;
        }
        // The stream ended (all shown receipts final); any still followed get a fresh stream shortly.
        await sleep(200).catch(() => undefined);
      }
    } finally {
      this.current = null;
      this.running = false;
    }
  }
}

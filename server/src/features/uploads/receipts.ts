/**
 * Receipts (upload_receipts) follow each uploaded file: `uploading` → `processing` (committed,
 * asset queued) → `completed` (the pipeline finished; the pipeline sets it through the receipt id) |
 * `duplicate` (the repository already holds this content: nothing stored) | `failed` (with a
 * problem). Terminal: completed, duplicate, failed.
 *
 * Here: reading them (getUploadStatus), following them until all are terminal (the SSE stream),
 * and the advisory precheck of what the caller already has (which is about the same question
 * asked before the upload: what will become of this file).
 */
import { DomainError } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import { toStoredProblem, type UploadsContext } from './uploads.context.ts';
import type { ReceiptState } from './uploads.results.ts';
import { TERMINAL_RECEIPT, type ReceiptRow, type StoredProblem } from './uploads.store.ts';

export class Receipts {
  /** Poll and heartbeat intervals of the receipt stream (tests shorten them). */
  readonly streamTiming = { pollMs: 500, heartbeatMs: 15_000 };

  constructor(private readonly ctx: UploadsContext) {}

  /** Advisory: which candidates the caller already has (same BLAKE3 and size). They still get uploaded and verified. */
  precheck(actor: Actor, input: { files: { hash: string; size: number; file_name?: string | undefined }[]; repository_id?: string | undefined }) {
    const files = input.files.map((f) => ({ ...f, hash: f.hash.toLowerCase() }));
    // The caller's OWN files: a photo a partner shares, or one in a shared album, is not in the
    // caller's library, so uploading it is not a duplicate.
    const found = this.ctx.store.assetsByHash(this.ctx.deps.access.scope(actor, 'asset', 'own', 'a'), files, input.repository_id);
    const results = files.map((f) => {
      const hit = found.get(`${f.hash}:${f.size}`);
      return { hash: f.hash, file_name: f.file_name ?? hit?.original_filename ?? null, duplicate: !!hit, candidate: !hit, asset_id: hit?.asset_id ?? null };
    });
    return { duplicate_count: results.filter((r) => r.duplicate).length, results };
  }

  /** The caller's receipts among `ids`; others' and unknown ids are left out. */
  receipts(actor: Actor, ids: string[]): { operations: ReceiptState[] } {
    const rows = this.ctx.store.receipts(this.ctx.deps.access.permitted(actor, 'upload_receipt', ids, 'read'));
    this.reconcileWithAssets(rows);
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.receipt_id)! - order.get(b.receipt_id)!);
    return { operations: rows.map(receiptState) };
  }

  /**
   * Follows receipts until all are terminal: `send('receipts', payload)` on every change (polled),
   * `send('heartbeat', …)` when quiet, `send('done', …)` at the end. Resolves when done or aborted.
   */
  async watch(actor: Actor, ids: string[], send: (event: string, data: unknown) => Promise<void>, signal: AbortSignal): Promise<void> {
    let last = '';
    let lastSent = Date.now();
    while (!signal.aborted) {
      const payload = this.receipts(actor, ids);
      const text = JSON.stringify(payload);
      if (text !== last) {
        await send('receipts', payload);
        last = text;
        lastSent = Date.now();
      }
      if (payload.operations.every((o) => o.terminal)) {
        await send('done', { receipt_ids: payload.operations.map((o) => o.receipt_id), all_terminal: true });
        return;
      }
      if (Date.now() - lastSent >= this.streamTiming.heartbeatMs) {
        await send('heartbeat', { at: new Date().toISOString() });
        lastSent = Date.now();
      }
      await sleep(this.streamTiming.pollMs, signal);
    }
  }

  /**
   * A receipt still `processing` whose asset is already ready (or failed) was processed without
   * this receipt (e.g. the folder watcher indexed the committed file first): follow the asset.
   */
  private reconcileWithAssets(rows: ReceiptRow[]): void {
    const { store, now } = this.ctx;
    const open = rows.filter((r) => r.status === 'processing' && r.asset_id);
    if (!open.length) return;
    const states = store.assetStates(open.map((r) => r.asset_id!));
    for (const r of open) {
      const st = states.get(r.asset_id!);
      if (st === 'ready') {
        store.updateReceipt(r.receipt_id, { status: 'completed' }, now());
        r.status = 'completed';
      } else if (st === 'failed') {
        const problem = toStoredProblem(new DomainError(422, 'processing_failed', 'The file was stored but could not be processed.'));
        store.updateReceipt(r.receipt_id, { status: 'failed', problem }, now());
        r.status = 'failed';
        r.problem = JSON.stringify(problem);
      }
    }
  }
}

function receiptState(r: ReceiptRow): ReceiptState {
  const terminal = TERMINAL_RECEIPT.includes(r.status);
  return {
    receipt_id: r.receipt_id,
    file_name: r.file_name,
    status: r.status,
    success: r.status === 'completed' || r.status === 'duplicate',
    terminal,
    problem: r.problem ? (JSON.parse(r.problem) as StoredProblem) : null,
    asset_id: r.asset_id,
    content_hash: r.content_hash,
    size: r.size,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

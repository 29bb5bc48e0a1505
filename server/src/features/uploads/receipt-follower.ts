/**
 * Upload receipts follow their asset through the catalog's changes (features/assets/asset-changes.ts): only uploads
 * writes `upload_receipts`; the assets feature never knows a receipt exists. Subscribed in the composition root
 * (container.ts); each handler runs in the transaction that writes the change, so a receipt can never say more or
 * less than its asset.
 *
 *   change                                   receipt
 *   asset.ingested / asset.moved (commit)    `uploading` → `processing`, naming the asset (the upload's own commit,
 *                                            whoever catalogued it: its route, the watcher, a scan, start-up recovery)
 *   asset.ready                              `processing` → `completed`
 *   asset.waiting (a tool is missing)        `processing` → `completed` with the `tool_missing` problem (the file is
 *                                            safe in the library; it is processed once the tool is there)
 *   asset.failed                             any state not terminal → `failed` with `processing_failed`
 *   asset.requeued (run again by hand)       `failed` → `processing`
 *
 * A receipt is found by its asset: a receipt names its asset from its commit on. A `duplicate` receipt names the
 * asset it duplicates and never follows it (it is terminal from the start).
 */
import type { AssetChangeBus } from '../assets/index.ts';
import type { ReceiptStatus, StoredProblem, UploadsStore } from './uploads.store.ts';

const NOT_TERMINAL: readonly ReceiptStatus[] = ['uploading', 'processing', 'queued'];

/**
 * `uploads`: the uploads service, which settles a committed upload's receipt (the same call start-up recovery makes);
 * `store`: the receipts' SQL for the processing outcomes.
 */
export function followAssetChanges(changes: AssetChangeBus, uploads: { settleReceipt(receiptId: string, assetId: string): void }, store: UploadsStore, now: () => number = Date.now): void {
  const settle = (c: { asset_id: string; commit?: { source: string; ref: string } }) => {
    if (c.commit?.source === 'upload') uploads.settleReceipt(c.commit.ref, c.asset_id);
  };
  changes.on('asset.ingested', 'upload receipts', settle);
  changes.on('asset.moved', 'upload receipts', settle);
  changes.on('asset.ready', 'upload receipts', (c) => store.followAsset(c.asset_id, ['processing'], { status: 'completed', problem: null }, now()));
  changes.on('asset.waiting', 'upload receipts', (c) => {
    const problem: StoredProblem & { tool: string } = { type: 'urn:hearth:problem:tool_missing', title: 'Waiting for a tool', status: 503, detail: c.reason, code: 'tool_missing', tool: c.tool, retryable: true };
    store.followAsset(c.asset_id, ['processing'], { status: 'completed', problem }, now());
  });
  changes.on('asset.failed', 'upload receipts', (c) => {
    const problem: StoredProblem = { type: 'urn:hearth:problem:processing_failed', title: 'Processing failed', status: 422, detail: c.reason, code: 'processing_failed', retryable: c.retryable };
    store.followAsset(c.asset_id, NOT_TERMINAL, { status: 'failed', problem }, now());
  });
  changes.on('asset.requeued', 'upload receipts', (c) => store.followAsset(c.asset_id, ['failed'], { status: 'processing', problem: null }, now()));
}

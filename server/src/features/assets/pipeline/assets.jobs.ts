/** Job definitions of the assets feature. */
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/registry.ts';

/**
 * Metadata, thumbnails, perceptual hash, web copy and media-item linking for one asset.
 * Idempotent: running it again rewrites the same derivatives and fields.
 */
export const processAsset = defineJob({
  kind: 'assets.process-asset',
  queue: 'media',
  args: z.object({
    asset_id: z.string(),
    /**
     * The upload receipt of the file: accepted and ignored (jobs queued before issue 26 carry it). Receipts follow
     * the asset's changes (features/uploads/receipt-follower.ts).
     */
    receipt_id: z.string().nullable().default(null),
    /** The content type the ingest detected (features/intake): not detected again while the asset's MIME type agrees. */
    content: z.object({ kind: z.enum(['photo', 'video', 'audio']), mime: z.string(), ext: z.string(), isRaw: z.boolean() }).nullable().default(null),
  }),
  maxAttempts: 3,
  // Long videos transcode for a while; the transcoder has its own duration-based timeout.
  timeoutMs: 6 * 3600_000,
  uses: ['pipeline'],
  handler: (args, ctx) => ctx.deps.pipeline.process(args.asset_id, ctx, args.content),
});

export const ASSETS_JOBS = [processAsset];

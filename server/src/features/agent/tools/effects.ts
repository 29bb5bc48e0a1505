/**
 * Effects: tag, make an album, add to an album, like, move to the Trash. Calling one changes nothing: it
 * proposes what would change (how many, the album's name, the tags), and the run waits for the member's yes
 * (../effects.ts commits it, re-checking ownership, in one transaction). Nothing here ever deletes: the
 * Trash is reversible, and it has its own confirmation (it is never folded into another effect).
 * At most 1,000 photos per effect (the reference's cardinality limit).
 */
import { z } from '@hono/zod-openapi';
import { Invalid } from '../../../platform/http/errors.ts';
import { RefId } from './transformers.ts';
import { defineTool, type EffectProposal, type ToolContext, type ToolResult } from './tool.ts';

export const EFFECT_MAX = 1000;

function proposed(ctx: ToolContext, tool: string, refId: string, payload: Record<string, unknown>, confirmation: Record<string, unknown>, what: string): ToolResult {
  const ref = ctx.refs.get(refId);
  if (ref.count > EFFECT_MAX) throw new Invalid(`At most ${EFFECT_MAX} photos at once; ${refId} holds ${ref.count}.`, [{ field: 'ref', message: `at most ${EFFECT_MAX}` }], 'too_many_for_effect');
  const proposal: EffectProposal = { tool_name: tool, payload, asset_ids: [...ref.ids], ref_id: refId, confirmation: { action: tool, ref_id: refId, count: ref.count, ...confirmation } };
  return { summary: `Waiting for your confirmation: ${what} (${ref.count} ${ref.count === 1 ? 'item' : 'items'}).`, ref_id: refId, count: ref.count, proposal };
}

const Tag = z.string().trim().min(1).max(100);

export const tagAssets = defineTool({
  name: 'tag_assets',
  kind: 'effect',
  desc: 'Adds tags to the photos of a ref (your own photos; asks first).',
  schema: z.strictObject({ ref: RefId, tags: z.array(Tag).min(1).max(10) }),
  run(args, ctx) {
    return proposed(ctx, 'tag_assets', args.ref, { tags: args.tags }, { tags: args.tags }, `tag with ${args.tags.join(', ')}`);
  },
});

export const createAlbum = defineTool({
  name: 'create_album',
  kind: 'effect',
  desc: 'Makes a new album of the photos of a ref (asks first).',
  schema: z.strictObject({ ref: RefId, name: z.string().trim().min(1).max(200) }),
  run(args, ctx) {
    return proposed(ctx, 'create_album', args.ref, { name: args.name }, { album_name: args.name }, `make the album "${args.name}"`);
  },
});

export const addToAlbum = defineTool({
  name: 'add_to_album',
  kind: 'effect',
  desc: 'Adds the photos of a ref to one of your albums (an album_id from lookup_albums; asks first).',
  schema: z.strictObject({ ref: RefId, album_id: z.number().int().min(1) }),
  run(args, ctx) {
    const name = ctx.lib.albumName(ctx.actor, args.album_id);
    return proposed(ctx, 'add_to_album', args.ref, { album_id: args.album_id }, { album_id: args.album_id, album_name: name }, `add to "${name}"`);
  },
});

export const bulkLike = defineTool({
  name: 'bulk_like_assets',
  kind: 'effect',
  desc: 'Likes (or unlikes) the photos of a ref (asks first).',
  schema: z.strictObject({ ref: RefId, liked: z.boolean().default(true) }),
  run(args, ctx) {
    return proposed(ctx, 'bulk_like_assets', args.ref, { liked: args.liked }, { liked: args.liked }, args.liked ? 'like' : 'unlike');
  },
});

export const trashAssets = defineTool({
  name: 'trash_assets',
  kind: 'effect',
  desc: 'Moves your photos of a ref to the Trash, where they can be restored (asks first, on its own; never deletes for good).',
  schema: z.strictObject({ ref: RefId }),
  run(args, ctx) {
    return proposed(ctx, 'trash_assets', args.ref, {}, { trash: true }, 'move to the Trash');
  },
});

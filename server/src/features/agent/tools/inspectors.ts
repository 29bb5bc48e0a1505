/** Inspectors (describe, inspect, peek) and `show`: they read a ref and answer facts or a card, never files. */
import { z } from '@hono/zod-openapi';
import { cameraName, facetsOf, localDay, placeName } from '../facets.ts';
import { markedFacts } from './marked.ts';
import { RefId } from './transformers.ts';
import { defineTool } from './tool.ts';

export const WIDGETS = ['cover_card', 'number_card', 'spark_card', 'mosaic_card'] as const;

export const describe = defineTool({
  name: 'describe',
  kind: 'inspector',
  desc: 'Counts of a ref: how many, types, date range and histogram, cameras, lenses, places, people, likes, ratings, quality.',
  schema: z.strictObject({ ref: RefId }),
  run(args, ctx) {
    const ref = ctx.refs.get(args.ref);
    const facts = markedFacts(ctx, ref.ids);
    const facets = facetsOf(facts, ctx.library.peopleIn(ctx.actor.userId, ref.ids));
    const range = facets.date_range.from ? `, ${facets.date_range.from === facets.date_range.to ? facets.date_range.from : `${facets.date_range.from} to ${facets.date_range.to}`}` : '';
    const types = Object.entries(facets.types).map(([t, n]) => `${n} ${t === 'VIDEO' ? 'video' : t === 'AUDIO' ? 'audio' : 'photo'}${n === 1 || t === 'AUDIO' ? '' : 's'}`).join(', ');
    return { summary: `${args.ref}: ${facets.count} (${types || 'nothing'})${range}.`, ref_id: args.ref, count: facets.count, data: { facets } };
  },
});

export const inspect = defineTool({
  name: 'inspect',
  kind: 'inspector',
  desc: 'Per-photo facts of the first `limit` of a ref: day, type, camera, lens, focal length, place, size.',
  schema: z.strictObject({ ref: RefId, limit: z.number().int().min(1).max(50).default(10) }),
  run(args, ctx) {
    const facts = markedFacts(ctx, ctx.refs.get(args.ref).ids.slice(0, args.limit));
    const rows = facts.map((a) => ({ asset_id: a.asset_id, day: localDay(a), type: a.type, camera: cameraName(a), lens: a.lens, focal_length: a.focal_length, place: placeName(a), width: a.width, height: a.height, liked: a.liked, rating: a.rating }));
    return { summary: `${rows.length} inspected.`, data: { assets: rows } };
  },
});

export const peek = defineTool({
  name: 'peek',
  kind: 'inspector',
  desc: 'The first few items of a ref: id, file name, day.',
  schema: z.strictObject({ ref: RefId, n: z.number().int().min(1).max(20).default(5) }),
  run(args, ctx) {
    const facts = markedFacts(ctx, ctx.refs.get(args.ref).ids.slice(0, args.n));
    return { summary: `First ${facts.length} of ${args.ref}.`, data: { assets: facts.map((a) => ({ asset_id: a.asset_id, filename: a.filename, day: localDay(a), type: a.type })) } };
  },
});

export const show = defineTool({
  name: 'show',
  kind: 'show',
  desc: 'Shows a ref to the member as a card: `cover_card` (a cover and a count), `number_card` (a number), `spark_card` (a count over time), `mosaic_card` (a grid).',
  schema: z.strictObject({ ref: RefId, widget: z.enum(WIDGETS).default('cover_card'), title: z.string().trim().min(1).max(200).optional() }),
  run(args, ctx) {
    const ref = ctx.refs.get(args.ref);
    const title = args.title ?? `${ref.count} ${ref.count === 1 ? 'item' : 'items'}`;
    const params: Record<string, unknown> = { cover_asset_id: ref.ids[0] ?? null };
    if (args.widget === 'mosaic_card') params.asset_ids = ref.ids.slice(0, 9);
    if (args.widget === 'spark_card') params.histogram = facetsOf(markedFacts(ctx, ref.ids), []).histogram;
    return { summary: `Shown ${args.ref} as ${args.widget}.`, ref_id: ref.ref_id, count: ref.count, widget: { widget: args.widget, ref_id: ref.ref_id, count: ref.count, title, params } };
  },
});

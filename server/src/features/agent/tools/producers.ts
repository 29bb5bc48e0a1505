/**
 * Producers (they make a ref from the library) and lookups (they name people, albums and events). Every ref
 * is made through RefBook.create, which keeps only what the member may read; the lists they start from are
 * the member's own library views (browse and search), which already hold only their own and partner-shared
 * photos.
 */
import { z } from '@hono/zod-openapi';
import { AssetFilterSchema, type AssetFilter } from '../../browse/index.ts';
import { understandQuery } from '../../search/index.ts';
import { NotFound } from '../../../platform/http/errors.ts';
import { planOf, REF_MAX_IDS } from '../refs.ts';
import { defineTool, type ToolContext, type ToolResult } from './tool.ts';

const Query = z.string().trim().min(1).max(500);

async function refOfFilter(ctx: ToolContext, op: string, payload: Record<string, unknown>, filter: AssetFilter | undefined, summary: string): Promise<ToolResult> {
  const rows = await ctx.lib.rows(ctx.actor, filter, ctx.timeZone);
  const ids = ctx.library.assetIdsOfRows(rows, REF_MAX_IDS + 1);
  const ref = ctx.refs.create(op, planOf(op, payload, ctx.actor.userId), ids);
  return { summary: `${summary}: ${ref.count} ${ref.count === 1 ? 'item' : 'items'}${ref.truncated ? ' (cut at 10,000)' : ''}.`, ref_id: ref.ref_id, count: ref.count };
}

/** The filter a plain-language `query` reads as (the search feature's parser), and the words it did not understand. */
export async function readQuery(ctx: ToolContext, query: string): Promise<{ filter: AssetFilter; rest: string; chips: string[] }> {
  const catalog = await ctx.lib.catalog(ctx.actor);
  // Read as `auto`, not `only`: the words the parser leaves are wanted too (searched as words, or reported).
  const u = understandQuery(query, { mode: 'auto', filter: undefined, ignore: [], timeZone: ctx.timeZone, now: Date.now(), catalog });
  return { filter: u.parsedFilter, rest: u.rest, chips: u.chips.map((c) => c.label) };
}

export const filterAssets = defineTool({
  name: 'filter_assets',
  kind: 'producer',
  desc: 'Photos and videos matching metadata filters (dates, type, camera, lens, person, place, album, event, tags, liked, rating), or a plain-language `query` read as filters.',
  schema: z.strictObject({ filter: AssetFilterSchema.optional(), query: Query.optional() }),
  async run(args, ctx) {
    let filter: AssetFilter | undefined = args.filter;
    let note = '';
    let rest = '';
    let understood: string[] = [];
    if (args.query) {
      const read = await readQuery(ctx, args.query);
      filter = { ...read.filter, ...(args.filter ?? {}) };
      rest = read.rest;
      understood = read.chips;
      if (read.rest) note = ` (not understood as a filter: "${read.rest}")`;
    }
    const r = await refOfFilter(ctx, 'filter_assets', args as Record<string, unknown>, filter && Object.keys(filter).length ? filter : undefined, 'Matching photos and videos');
    return { ...r, summary: r.summary + note, data: { filter: filter ?? {}, understood, not_understood: rest } };
  },
});

async function searched(ctx: ToolContext, query: string, limit: number, only?: (sources: string[]) => boolean): Promise<{ ids: string[]; degraded: boolean }> {
  const res = await ctx.lib.search(ctx.actor, { query, enhancement_mode: 'off', pagination: { limit, offset: 0 }, viewer_timezone: ctx.timeZone });
  const items = res.result_items.filter((i) => !only || only(i.match.sources));
  return { ids: items.map((i) => i.media_item.primary_asset.asset_id), degraded: res.top_results_meta.degraded };
}

export const searchSemantic = defineTool({
  name: 'search_semantic',
  kind: 'producer',
  desc: 'Photos that look like or are about the words (the library search: likeness, file names, places, text in photos), best first.',
  schema: z.strictObject({ query: Query, limit: z.number().int().min(1).max(1000).default(200) }),
  async run(args, ctx) {
    const { ids, degraded } = await searched(ctx, args.query, args.limit);
    const ref = ctx.refs.create('search_semantic', planOf('search_semantic', args, ctx.actor.userId), ids);
    return { summary: `Search for "${args.query}": ${ref.count} found${degraded ? ' (the likeness search is not available on this server; names, places and text only)' : ''}.`, ref_id: ref.ref_id, count: ref.count };
  },
});

export const searchText = defineTool({
  name: 'search_text',
  kind: 'producer',
  desc: 'Photos whose visible text (read by OCR) contains the words.',
  schema: z.strictObject({ text: Query, limit: z.number().int().min(1).max(1000).default(200) }),
  async run(args, ctx) {
    const { ids } = await searched(ctx, args.text, args.limit, (s) => s.includes('ocr'));
    const ref = ctx.refs.create('search_text', planOf('search_text', args, ctx.actor.userId), ids);
    return { summary: `Photos with the words "${args.text}" in them: ${ref.count}.`, ref_id: ref.ref_id, count: ref.count };
  },
});

function personByName(ctx: ToolContext, name: string): { person_id: number; name: string } {
  const wanted = name.trim().replace(/^@/, '').toLowerCase();
  const p = ctx.lib.people(ctx.actor).find((x) => x.name?.toLowerCase() === wanted);
  if (!p) throw new NotFound(`No person named ${name} in your library.`, 'person_not_found');
  return { person_id: p.person_id, name: p.name! };
}

export const searchPeople = defineTool({
  name: 'search_people',
  kind: 'producer',
  desc: 'Photos with all of the given people (by person id or name, from lookup_people).',
  schema: z.strictObject({ person_ids: z.array(z.number().int().min(1)).min(1).max(10).optional(), names: z.array(z.string().min(1).max(200)).min(1).max(10).optional() }).refine((a) => a.person_ids || a.names, 'give person_ids or names'),
  async run(args, ctx) {
    const ids = [...(args.person_ids ?? [])];
    for (const n of args.names ?? []) ids.push(personByName(ctx, n).person_id);
    // Another member's person never matches (browse: people are their owner's).
    return refOfFilter(ctx, 'search_people', { person_ids: ids }, { person_ids: ids }, `Photos with ${ids.length === 1 ? 'this person' : 'these people'}`);
  },
});

export const searchPlaces = defineTool({
  name: 'search_places',
  kind: 'producer',
  desc: 'Photos taken in a place (a town, region or country where you have photos).',
  schema: z.strictObject({ place: z.string().trim().min(1).max(200) }),
  async run(args, ctx) {
    const read = await readQuery(ctx, `in ${args.place}`);
    if (!read.filter.location && !read.filter.place_id) throw new NotFound(`You have no photos in a place called ${args.place}.`, 'place_not_found');
    return refOfFilter(ctx, 'search_places', args, { location: read.filter.location, place_id: read.filter.place_id }, `Photos in ${args.place}`);
  },
});

export const searchEvents = defineTool({
  name: 'search_events',
  kind: 'producer',
  desc: 'The photos of one of your events (an event_id from lookup_events).',
  schema: z.strictObject({ event_id: z.uuid() }),
  async run(args, ctx) {
    return refOfFilter(ctx, 'search_events', args, { event_id: args.event_id }, 'Photos of the event');
  },
});

export const lookupPeople = defineTool({
  name: 'lookup_people',
  kind: 'lookup',
  desc: 'Your named people (at most 20), optionally those whose name contains `name`.',
  schema: z.strictObject({ name: z.string().max(200).optional(), limit: z.number().int().min(1).max(20).default(20) }),
  run(args, ctx) {
    const q = args.name?.toLowerCase().replace(/^@/, '');
    const people = ctx.lib.people(ctx.actor).filter((p) => p.name && (!q || p.name.toLowerCase().includes(q))).slice(0, args.limit);
    return { summary: `${people.length} ${people.length === 1 ? 'person' : 'people'}.`, data: { people: people.map((p) => ({ person_id: p.person_id, name: p.name, asset_count: p.asset_count })) } };
  },
});

export const lookupAlbums = defineTool({
  name: 'lookup_albums',
  kind: 'lookup',
  desc: 'Your albums (and albums shared with you), optionally those whose name contains `name`.',
  schema: z.strictObject({ name: z.string().max(200).optional(), limit: z.number().int().min(1).max(50).default(20) }),
  run(args, ctx) {
    const q = args.name?.toLowerCase().replace(/^#/, '');
    const albums = ctx.lib.albums(ctx.actor).filter((a) => !q || a.album_name.toLowerCase().includes(q)).slice(0, args.limit);
    return { summary: `${albums.length} ${albums.length === 1 ? 'album' : 'albums'}.`, data: { albums: albums.map((a) => ({ album_id: a.album_id, album_name: a.album_name, asset_count: a.asset_count })) } };
  },
});

export const lookupEvents = defineTool({
  name: 'lookup_events',
  kind: 'lookup',
  desc: 'Your events (days and trips the library found), optionally those whose title contains `query` or that fall in `year`.',
  schema: z.strictObject({ query: z.string().max(200).optional(), year: z.number().int().min(1900).max(2100).optional(), limit: z.number().int().min(1).max(50).default(20) }),
  run(args, ctx) {
    const q = args.query?.toLowerCase();
    const events = ctx.lib
      .events(ctx.actor)
      .filter((e) => (!q || e.title.toLowerCase().includes(q)) && (!args.year || new Date(e.start_at).getUTCFullYear() === args.year))
      .slice(0, args.limit);
    return { summary: `${events.length} ${events.length === 1 ? 'event' : 'events'}.`, data: { events } };
  },
});

/**
 * Plain-language queries wired into search (issue 13 point 5): the parts of the query the parser
 * understands become filters, shown as chips, and the rest goes to the channels.
 *
 * - The parser's catalog names are the caller's own (getFilterOptions: camera makes, cameras with
 *   their display name as another way to say them, lenses); "today" is now, in `viewer_timezone`.
 * - The parsed filter goes UNDER the request's own: where both set a field, the request's value wins.
 * - A chip the user removed comes back in `ignore_parsed` (its id); its words then stay in the text
 *   the channels search, as if the parser had not understood them.
 * - `enhancement_mode`: `auto` (default) parses; `off` does not (the whole query is searched);
 *   `only` uses the parsed filter alone (the rest is not searched: "videos from 2023 beach" lists the
 *   2023 videos). There is no language model yet; "enhancement" here is this offline parser.
 */
import type { AssetFilter } from '../browse/index.ts';
import { BadRequest } from '../../platform/http/errors.ts';
import { QueryParser, type CatalogName, type ParsedPart, type PlaceName } from './query-language/index.ts';

export type EnhancementMode = 'auto' | 'off' | 'only';

export interface Chip {
  id: string;
  kind: string;
  label: string;
  text: string;
}

export interface Understood {
  /** The text the channels search. */
  rest: string;
  /** The whole query as words (the "words" reading: nothing taken as a filter). */
  words: string;
  /** The parser's filter alone (echoed). */
  parsedFilter: AssetFilter;
  /** The filter the search runs under: the parsed one with the request's fields over it. */
  filter: AssetFilter | undefined;
  chips: Chip[];
}

export interface CatalogNames {
  camera_makes: string[];
  cameras: { make: string | null; model: string; name: string }[];
  lenses: string[];
  /** The caller's places (channels/place.ts knownPlaces): "in Lisbon" becomes a location chip. */
  places?: PlaceName[];
  /** The caller's named people. */
  people?: { id: number; name: string }[];
}

export function understandQuery(
  query: string,
  opts: { mode: EnhancementMode; filter: AssetFilter | undefined; ignore: readonly string[]; timeZone: string; now: number; catalog: CatalogNames },
): Understood {
  if (opts.mode === 'off' || query.trim() === '') return { rest: query.trim(), words: query.trim(), parsedFilter: {}, filter: opts.filter, chips: [] };
  let parser: QueryParser;
  try {
    parser = new QueryParser({
      now: opts.now,
      timeZone: opts.timeZone,
      cameraMakes: opts.catalog.camera_makes,
      cameraModels: opts.catalog.cameras.map((c): CatalogName => ({ value: c.model, say: [c.name] })),
      lenses: opts.catalog.lenses,
      places: opts.catalog.places,
      people: opts.catalog.people,
    });
  } catch (e) {
    if (e instanceof RangeError) throw new BadRequest('viewer_timezone is not a time zone this server knows.', 'validation_failed', [{ field: 'body.viewer_timezone', message: 'unknown IANA time zone' }]);
    throw e;
  }
  const { query: parsed, ids } = parser.parseIgnoring(query, new Set(opts.ignore));
  const filter = { ...parsed.filter, ...(opts.filter ?? {}) };
  return {
    rest: opts.mode === 'only' ? '' : parsed.rest,
    words: query.trim(),
    parsedFilter: parsed.filter,
    filter: Object.keys(filter).length ? filter : undefined,
    chips: parsed.parsed.map((p, i) => ({ id: ids[i]!, kind: p.kind, label: labelOf(p), text: p.text })),
  };
}

/** What a chip shows: the filter in a few words (English for now, like the grammar). */
function labelOf(p: ParsedPart): string {
  const f = p.filter;
  switch (p.kind) {
    case 'date': {
      const from = f.date?.from?.slice(0, 10);
      const to = f.date?.to?.slice(0, 10);
      return from && to ? (from === to ? from : `${from} – ${to}`) : from ? `from ${from}` : `until ${to}`;
    }
    case 'media_type':
      return f.type === 'VIDEO' ? 'Videos' : f.type === 'AUDIO' ? 'Audio' : 'Photos';
    case 'live_photo':
      return 'Live photos';
    case 'screenshot':
      return 'Screenshots';
    case 'favourite':
      return 'Favourites';
    case 'rating':
      return f.rating === 0 ? 'Unrated' : f.rating !== undefined ? `${f.rating} stars` : `${f.rating_min}+ stars`;
    case 'camera_make':
      return `Camera make ${f.camera_make}`;
    case 'camera_model':
      return `Camera ${f.camera_model}`;
    case 'lens':
      return `Lens ${f.lens}`;
    case 'place':
      return `In ${placeNameOf(p)}`;
    case 'person':
      return `With ${p.text.replace(/^with\s+/i, '')}`;
    default:
      return p.text.trim();
  }
}

/** The place as the query named it, without the word before it ("in Lisbon" → "Lisbon"). */
function placeNameOf(p: ParsedPart): string {
  return p.text.trim().replace(/^(?:taken\s+)?(?:in|at|near|around)\s+/i, '');
}

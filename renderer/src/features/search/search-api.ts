/**
 * The search operations (searchAssets, searchAssetsByImage) as the UI speaks them, typed by the generated
 * schema (renderer/src/api/schema.d.ts): the contract's Search response with Hearth's additions (`parsed` with
 * its chips, `ignore_parsed`, and `match` on every result).
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';

export const SEARCH_PATH = '/api/v1/assets/search';
export const SEARCH_BY_IMAGE_PATH = '/api/v1/assets/search/by-image';

type Schemas = components['schemas'];
/** Why a result came back: the fused score, phrases for people, the channels that found it. */
export type SearchMatch = Schemas['SearchMatch'];
export type SearchItem = Schemas['SearchItem'];
export type SearchResponse = Schemas['SearchResponse'];
export type SearchBody = Schemas['SearchRequest'];
/** A part of the query the server understood as a filter ("videos", "2023"). */
export type ParsedChip = SearchResponse['parsed']['chips'][number];

/** What the search page asks: one of a text query, a catalog photo, or a query image. */
export type SearchInput =
  | { kind: 'text'; query: string; ignoreParsed: readonly string[]; reading?: 'filters' | 'words' | undefined }
  | { kind: 'similar'; assetId: string }
  | { kind: 'image'; key: string; file: File };

/** The first page: a screenful on a large monitor; later pages are larger (as the library grid). */
export const FIRST_PAGE = 100;
export const NEXT_PAGE = 200;
/** "Best results": the few the fusion is surest of. */
export const TOP_RESULTS = 12;

const VIEWER_TIMEZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Results live under the library's key: whatever refreshes the library (a photo trashed, liked,
 * tagged from the results' own selection bar, an upload settling) refreshes the results too.
 */
export const searchKeys = {
  all: ['search'] as const,
  results: (input: SearchInput) =>
    ['library', 'search', input.kind === 'image' ? { kind: 'image', key: input.key } : input] as const,
  parse: (query: string) => ['search', 'parse', query] as const,
};

function searchPage(input: SearchInput, offset: number, signal: AbortSignal): Promise<SearchResponse> {
  const limit = offset === 0 ? FIRST_PAGE : NEXT_PAGE;
  if (input.kind === 'image') {
    return request(
      api.POST(SEARCH_BY_IMAGE_PATH, {
        // The multipart form is built below (a File cannot be typed as the schema's binary string).
        body: {} as never,
        bodySerializer: () => {
          const form = new FormData();
          form.append('image', input.file, input.file.name || 'query-image');
          form.append('limit', String(limit));
          form.append('offset', String(offset));
          form.append('top_results_limit', String(TOP_RESULTS));
          if (VIEWER_TIMEZONE) form.append('viewer_timezone', VIEWER_TIMEZONE);
          return form;
        },
        signal,
      }),
    );
  }
  const body: SearchBody = {
    pagination: { limit, offset },
    top_results_limit: TOP_RESULTS,
    ...(VIEWER_TIMEZONE ? { viewer_timezone: VIEWER_TIMEZONE } : {}),
    ...(input.kind === 'text'
      ? { query: input.query, ...(input.ignoreParsed.length ? { ignore_parsed: [...input.ignoreParsed] } : {}), ...(input.reading ? { reading: input.reading } : {}) }
      : { similar_to_asset_id: input.assetId }),
  };
  return request(api.POST(SEARCH_PATH, { body, signal }));
}

/** The results of a search, a page at a time (best results come with the first page). */
export function useSearch(input: SearchInput | null) {
  return useInfiniteQuery({
    queryKey: input ? searchKeys.results(input) : ['search', 'none'],
    enabled: input !== null,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => searchPage(input!, pageParam, signal),
    getNextPageParam: (last: SearchResponse) =>
      last.offset + last.result_items.length < last.results_total_visible && last.result_items.length > 0 ? last.offset + last.result_items.length : undefined,
    // A search is a moment's answer: it is asked again when the page comes back, not kept for long.
    staleTime: 30_000,
    retry: 1,
  });
}

/**
 * What the server makes of the words typed so far, for the suggestions: the filters it would apply
 * (its parser lives on the server, in one place a translator can extend). Asked with the smallest page
 * and `enhancement_mode: only`, so no search channel (no image model) runs for a suggestion.
 */
export function useParsedChips(query: string) {
  return useQuery({
    queryKey: searchKeys.parse(query),
    enabled: query.trim().length > 1,
    queryFn: async ({ signal }) => {
      const r = await request(api.POST(SEARCH_PATH, { body: { query, pagination: { limit: 1, offset: 0 }, top_results_limit: 1, enhancement_mode: 'only' }, signal }));
      return r.parsed?.chips ?? [];
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Tag names containing the typed words (searchTags), for the suggestions. */
export function useTagSuggestions(query: string) {
  const q = query.trim();
  return useQuery({
    queryKey: ['search', 'tags', q],
    enabled: q.length > 0,
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/tags', { params: { query: { q, limit: 5 } }, signal })),
    select: (r) => r.tags.map((t) => t.tag_name),
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * Server state of the Events screens: the list (listEvents, a cursor page at a time), one event
 * (getEvent), its photos (listEventMembers for the event's own order, queryAssets by `event_id` for
 * the tiles), what it is related to (getEventRelations), the rebuild state (get/updateEventRebuildState)
 * and the person's corrections (updateEvent, splitEvent, addEventAssets, removeEventMediaItem, resetEvent).
 *
 * The keys live under the library's: photos added, trashed or restored anywhere change events (a
 * rebuild follows), and a change made here changes the library's lists too (`event_id` filters), so
 * one invalidation of `libraryKeys.all` refreshes both ways.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { libraryKeys, type GalleryItem } from '../../photos/library-api';

export type PhotoEvent = components['schemas']['PhotoEvent'];
export type PhotoEventDetail = components['schemas']['PhotoEventDetail'];
export type RebuildState = components['schemas']['PhotoEventRebuildState'];
export type EventRelations = components['schemas']['PhotoEventRelations'];

export const eventKeys = {
  all: [...libraryKeys.all, 'events'] as const,
  list: (includeHidden: boolean) => [...libraryKeys.all, 'events', 'list', includeHidden] as const,
  one: (id: string) => [...libraryKeys.all, 'events', 'one', id] as const,
  photos: (id: string) => [...libraryKeys.all, 'events', 'photos', id] as const,
  relations: (id: string) => [...libraryKeys.all, 'events', 'relations', id] as const,
  rebuild: [...libraryKeys.all, 'events', 'rebuild-state'] as const,
  people: [...libraryKeys.all, 'events', 'people-names'] as const,
};

/** Cards per request: a few screens of cards; "Show more events" asks for the next. */
export const EVENTS_PAGE_SIZE = 30;
/** While a rebuild runs or waits, look again this often (events appear when it publishes). */
const REBUILD_POLL_MS = 4_000;
/**
 * Photos of one event loaded for its page. An event is a day or a trip: hundreds of photos, rarely
 * thousands. Beyond this the page shows the first ones and says how many more there are.
 */
export const EVENT_PHOTOS_MAX = 3_000;

export function useEvents(includeHidden: boolean) {
  return useInfiniteQuery({
    queryKey: eventKeys.list(includeHidden),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      request(
        api.GET('/api/v1/events', {
          params: { query: { limit: EVENTS_PAGE_SIZE, include_hidden: includeHidden ? 'true' : 'false', ...(pageParam ? { cursor: pageParam } : {}) } },
          signal,
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** Events of the loaded pages, each once (a rebuild between two pages may move one). */
export function flattenEvents(pages: readonly { events: PhotoEvent[] }[] | undefined): PhotoEvent[] {
  const seen = new Set<string>();
  return (pages ?? []).flatMap((p) => p.events).filter((e) => !seen.has(e.event_id) && Boolean(seen.add(e.event_id)));
}

export const rebuildBusy = (s: RebuildState | undefined) => Boolean(s && (s.running_run_id || s.queued_run_id || (s.pending && !s.paused)));

export function useRebuildState() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: eventKeys.rebuild,
    queryFn: async ({ signal }) => {
      const state = await request(api.GET('/api/v1/events/rebuild-state', { signal }));
      // A rebuild published since the last look: the list changed.
      const before = queryClient.getQueryData<RebuildState>(eventKeys.rebuild);
      if (before && before.published_revision !== state.published_revision) void queryClient.invalidateQueries({ queryKey: [...eventKeys.all, 'list'] });
      return state;
    },
    refetchInterval: (q) => (rebuildBusy(q.state.data) || !q.state.data?.initialized ? REBUILD_POLL_MS : false),
  });
}

export function useChangeRebuildState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { paused?: boolean; rebuild?: boolean }) => request(api.PATCH('/api/v1/events/rebuild-state', { body })),
    onSuccess: (state) => queryClient.setQueryData(eventKeys.rebuild, state),
    onSettled: () => queryClient.invalidateQueries({ queryKey: eventKeys.rebuild }),
  });
}

/**
 * One event. While a rebuild is due (`pending_rebuild`: after a correction, or a Reset, whose
 * returning photos come with the rebuild), it is read again every few seconds; when the rebuild has
 * run, its photos and relations are read again too, so the page shows what the rebuild made.
 */
export function useEvent(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: eventKeys.one(id),
    queryFn: async ({ signal }) => {
      const event = await request(api.GET('/api/v1/events/{id}', { params: { path: { id } }, signal }));
      const before = queryClient.getQueryData<PhotoEventDetail>(eventKeys.one(id));
      if (before?.pending_rebuild && !event.pending_rebuild) {
        void queryClient.invalidateQueries({ queryKey: eventKeys.photos(event.event_id) });
        void queryClient.invalidateQueries({ queryKey: eventKeys.relations(event.event_id) });
      }
      return event;
    },
    retry: (n, e) => (e as { status?: number }).status !== 404 && n < 2,
    refetchInterval: (q) => (q.state.data?.pending_rebuild ? REBUILD_POLL_MS : false),
  });
}

export interface EventPhotos {
  /** The event's photos in its own order (the one a split cuts). */
  items: GalleryItem[];
  /** Members not loaded (beyond EVENT_PHOTOS_MAX). */
  more: number;
}

/**
 * The event's photos as gallery items, in the event's order. The order is listEventMembers' (by
 * position: "split here" cuts there), the tiles queryAssets' (`event_id`, stacks expanded so every
 * member is a tile); an item the members list does not have yet goes last by time.
 */
export function useEventPhotos(id: string) {
  return useQuery({
    queryKey: eventKeys.photos(id),
    queryFn: async ({ signal }): Promise<EventPhotos> => {
      const position = new Map<string, number>();
      let cursor: string | null = null;
      let total = 0;
      do {
        const page: components['schemas']['PhotoEventMembers'] = await request(
          api.GET('/api/v1/events/{id}/members', { params: { path: { id }, query: { limit: 500, ...(cursor ? { cursor } : {}) } }, signal }),
        );
        for (const m of page.assets) position.set(m.media_item_id, m.position);
        total += page.assets.length;
        cursor = page.next_cursor;
      } while (cursor && position.size < EVENT_PHOTOS_MAX);
      const items: GalleryItem[] = [];
      for (let offset = 0; items.length < EVENT_PHOTOS_MAX; ) {
        const page = await request(
          api.POST('/api/v1/assets/query', {
            body: { filter: { event_id: id }, sort_by: 'date_captured', stack_mode: 'expanded', pagination: { limit: 200, offset } },
            signal,
          }),
        );
        items.push(...page.items);
        offset += page.items.length;
        if (page.items.length === 0 || offset >= page.total_visible) break;
      }
      const at = (i: GalleryItem) => position.get(i.media_item.media_item_id) ?? Number.MAX_SAFE_INTEGER;
      items.sort((a, b) => at(a) - at(b) || a.best_ts_ms - b.best_ts_ms);
      return { items, more: Math.max(0, total - items.length) };
    },
  });
}

export function useEventRelations(id: string, enabled = true) {
  return useQuery({
    queryKey: eventKeys.relations(id),
    enabled,
    queryFn: ({ signal }) => request(api.GET('/api/v1/events/{id}/relations', { params: { path: { id } }, signal })),
    staleTime: 60_000,
  });
}

/**
 * The names of the person's people, by id, for the people an event holds. One list for every card
 * (the people of a household are a few dozen), read a page of 100 at a time.
 */
export function usePeopleNames(enabled = true) {
  return useQuery({
    queryKey: eventKeys.people,
    enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const names = new Map<string, string | null>();
      for (let offset = 0; offset < 1000; ) {
        const page = await request(api.GET('/api/v1/people', { params: { query: { limit: 100, offset } }, signal }));
        for (const p of page.people) names.set(String(p.person_id), p.name);
        offset += page.people.length;
        if (page.people.length === 0 || offset >= page.total) break;
      }
      return names;
    },
  });
}

/** After a correction: the event itself, its photos, the list and the library's lists are read again. */
function useEventChange<A, R extends { event: PhotoEventDetail }>(id: string, fn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (r) => {
      if (r.event.event_id === id) queryClient.setQueryData(eventKeys.one(id), r.event);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
  });
}

export type EventChange = components['schemas']['PhotoEventChange'];

export function useUpdateEvent(id: string) {
  return useEventChange(id, (body: EventChange) => request(api.PATCH('/api/v1/events/{id}', { params: { path: { id } }, body })));
}

export function useSplitEvent(id: string) {
  return useEventChange(id, (mediaItemId: string) => request(api.POST('/api/v1/events/{id}/split', { params: { path: { id } }, body: { at_media_item_id: mediaItemId } })));
}

export function useAddToEvent(id: string) {
  return useEventChange(id, (assetIds: string[]) => request(api.POST('/api/v1/events/{id}/members', { params: { path: { id } }, body: { asset_ids: assetIds } })));
}

/** Several items out, one request each (the API takes one); stops at the first refusal. */
export function useRemoveFromEvent(id: string) {
  return useEventChange(id, async (mediaItemIds: string[]) => {
    let last: components['schemas']['PhotoEventChangeResult'] | null = null;
    for (const mediaItemId of mediaItemIds) {
      last = await request(api.DELETE('/api/v1/events/{id}/members/{mediaItemId}', { params: { path: { id, mediaItemId } } }));
    }
    if (!last) throw new Error('Nothing to remove.');
    return last;
  });
}

export function useResetEvent(id: string) {
  return useEventChange(id, () => request(api.POST('/api/v1/events/{id}/reset', { params: { path: { id } } })));
}

/** The caller's places (listPlaces, getPlace): cities or countries with counts and covers. */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';

export type Place = components['schemas']['Place'];
/** The tabs of the Places page; regions are the server's too, but a household thinks in towns and countries. */
export type PlaceLevel = 'city' | 'country';

const PAGE = 100;

export const placesKeys = {
  all: ['places'] as const,
  list: (level: PlaceLevel) => ['places', 'list', level] as const,
  one: (placeId: string) => ['places', 'one', placeId] as const,
};

export function usePlaces(level: PlaceLevel) {
  return useInfiniteQuery({
    queryKey: placesKeys.list(level),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => request(api.GET('/api/v1/places', { params: { query: { level, limit: PAGE, offset: pageParam } }, signal })),
    getNextPageParam: (last) => (last.offset + last.places.length < last.total ? last.offset + last.places.length : undefined),
  });
}

export function usePlace(placeId: string) {
  return useQuery({
    queryKey: placesKeys.one(placeId),
    queryFn: ({ signal }) => request(api.GET('/api/v1/places/{place_id}', { params: { path: { place_id: placeId } }, signal })),
  });
}

export const photosText = (n: number) => (n === 1 ? '1 photo' : `${n.toLocaleString()} photos`);

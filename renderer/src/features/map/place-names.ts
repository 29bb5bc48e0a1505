/**
 * Names for the map's clusters: the place names of the caller's ~150 m cells (listPlaceCells),
 * looked up by each point's geohash-7. Why not names on the points: getMapPoints keeps its points
 * written in memory and a cell is named a moment after ingest, so names there would go stale (see
 * server/src/features/places/places.service.ts); the cells are read live.
 *
 * A cluster is named after the place most of its photos are in; when it spans more than one place
 * (zoomed out over a country), the name says how many others ("Florence, Italy and 2 more places").
 * Points whose cell is not named yet count towards no place.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { geohash } from './geohash';
import type { Cluster } from './map-api';

export type PlaceCell = components['schemas']['PlaceCell'];

const PAGE = 10_000;
/** Enough for a household's travels, as the map's points. */
const MAX_CELLS = 100_000;

export function usePlaceCells() {
  return useQuery({
    queryKey: ['places', 'cells'],
    queryFn: async ({ signal }) => {
      const cells = new Map<string, PlaceCell>();
      let total = 0;
      do {
        const page = await request(api.GET('/api/v1/places/cells', { params: { query: { limit: PAGE, offset: cells.size } }, signal }));
        for (const c of page.cells) cells.set(c.geohash, c);
        total = page.total;
        if (page.cells.length === 0) break;
      } while (cells.size < Math.min(total, MAX_CELLS));
      return cells;
    },
  });
}

export interface ClusterName {
  /** "Lisbon, Portugal", or "Lisbon, Portugal and 2 more places"; null when no point's place is known. */
  label: string | null;
  /** The main place's city entry in Places. */
  placeId: string | null;
}

export function clusterName(cluster: Cluster, cells: ReadonlyMap<string, PlaceCell> | undefined): ClusterName {
  if (!cells || cells.size === 0) return { label: null, placeId: null };
  const counts = new Map<string, { n: number; cell: PlaceCell }>();
  for (const p of cluster.points) {
    const cell = cells.get(geohash(p.gps_latitude, p.gps_longitude, 7));
    if (!cell) continue;
    const seen = counts.get(cell.label);
    if (seen) seen.n++;
    else counts.set(cell.label, { n: 1, cell });
  }
  let best: { n: number; cell: PlaceCell } | null = null;
  for (const c of counts.values()) if (!best || c.n > best.n || (c.n === best.n && c.cell.label < best.cell.label)) best = c;
  if (!best) return { label: null, placeId: null };
  const others = counts.size - 1;
  return {
    label: others === 0 ? best.cell.label : `${best.cell.label} and ${others === 1 ? '1 more place' : `${others} more places`}`,
    placeId: best.cell.city_place_id,
  };
}

export const photoCount = (n: number) => (n === 1 ? '1 photo' : `${n.toLocaleString()} photos`);

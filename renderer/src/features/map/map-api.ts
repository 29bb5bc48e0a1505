/** The photo map's points: every geotagged item of the caller, fetched a page of 5000 at a time. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';

export type MapPoint = components['schemas']['MapPoint'];

/** Enough for a household's travels; beyond it the map says it shows the newest ones. */
const MAX_POINTS = 100_000;
const PAGE = 5000;

export function useMapPoints() {
  return useQuery({
    queryKey: ['library', 'map-points'],
    queryFn: async ({ signal }) => {
      const points: MapPoint[] = [];
      let total = 0;
      do {
        const page = await request(api.GET('/api/v1/assets/map-points', { params: { query: { limit: PAGE, offset: points.length } }, signal }));
        points.push(...page.points);
        total = page.total;
        if (page.points.length === 0) break;
      } while (points.length < Math.min(total, MAX_POINTS));
      return { points, total };
    },
  });
}

export interface Cluster {
  key: string;
  x: number;
  y: number;
  points: MapPoint[];
}

/**
 * Groups points into square cells of `cell` map units (grid clustering: cheap, stable as the map
 * pans); each cluster sits at the mean of its points.
 */
export function clusterPoints(points: readonly MapPoint[], cell: number, project: (lon: number, lat: number) => [number, number]): Cluster[] {
  const cells = new Map<string, Cluster>();
  for (const p of points) {
    const [x, y] = project(p.gps_longitude, p.gps_latitude);
    const key = `${Math.floor(x / cell)}:${Math.floor(y / cell)}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { key, x: 0, y: 0, points: [] }));
    c.points.push(p);
    c.x += x;
    c.y += y;
  }
  for (const c of cells.values()) {
    c.x /= c.points.length;
    c.y /= c.points.length;
  }
  return [...cells.values()];
}

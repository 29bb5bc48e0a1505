/**
 * Map points (getMapPoints): where the caller's photos and videos were taken.
 *
 * Decisions (the contract gives the parameters and the point fields):
 * - Only your own assets, not in the Trash (administrators too), one point per media item: a
 *   RAW+JPEG pair or a live photo is one point, at its primary (the library grid's rule).
 * - Photos and videos alike (anything with a position); (0, 0) exactly counts as "no position":
 *   it is what cameras and apps write for an empty GPS block, and nothing real is ever taken there.
 * - The viewport is all four bounds or none (422 naming the missing ones); south must not exceed
 *   north; west > east is a box crossing the antimeridian (west 170, east -170 is 20° wide).
 * - Order: newest capture first (taken_time, else upload_time), then asset id, so paging with
 *   limit/offset is stable; `total` counts every matching point, not just the page.
 * - Points carry no place names: the points are kept written in memory and follow the change
 *   journal (map-index.ts), which a cell being named (place-names.ts, a moment after ingest) does
 *   not touch, so names there would go stale. The map names its clusters from
 *   listLocationClusters (label, city, country), and getAsset gives a point's place.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Invalid } from '../../platform/http/errors.ts';
import type { RepositoryLookup } from '../repositories/index.ts';
import type { MapIndex } from './map-index.ts';
import type { Viewport } from './places.store.ts';
import type { MapPointsQuery } from './places.routes.ts';
import { PlaceListService } from './place-list.service.ts';

const BOUNDS = ['south', 'north', 'west', 'east'] as const;

export class PlacesService {
  /** listPlaces and listPlaceCells: the caller's cities, regions and countries (place-list.service.ts). */
  readonly placeList: PlaceListService;

  /** One per catalog, built by the container with the server's map index. */
  constructor(
    private readonly db: Db,
    private readonly index: MapIndex,
    private readonly repositories: RepositoryLookup,
  ) {
    this.placeList = new PlaceListService(db);
  }

  /** The MapPoints answer, already written as JSON. */
  async mapPointsJson(actor: Actor, q: MapPointsQuery): Promise<string> {
    const given = BOUNDS.filter((b) => q[b] !== undefined);
    let box: Viewport | undefined;
    if (given.length > 0 && given.length < 4) {
      const missing = BOUNDS.filter((b) => q[b] === undefined);
      throw new Invalid(
        `A viewport needs all four bounds: add ${missing.join(', ')} (or send none).`,
        missing.map((b) => ({ field: `query.${b}`, message: 'is required when any bound is given', code: 'bounds_incomplete' })),
        'bounds_incomplete',
      );
    }
    if (given.length === 4) {
      box = { south: q.south!, north: q.north!, west: q.west!, east: q.east! };
      if (box.south > box.north) {
        throw new Invalid('south must not be greater than north.', [{ field: 'query.south', message: 'must be less than or equal to north' }], 'bounds_inverted');
      }
    }
    if (q.repository_id !== undefined) this.repositories.require(q.repository_id);
    // The index reads the change journal and the rows read again in one snapshot.
    const { total, points } = await this.index.matchJson(actor.userId, box, q.repository_id, q.limit, q.offset);
    // Written here rather than by c.json: the points are kept written (map-index.ts pointJson).
    return `{"limit":${q.limit},"offset":${q.offset},"total":${total},"points":[${points.join(',')}]}`;
  }
}

/** Job definitions of the places feature (place-names.ts, location-clusters.service.ts). */
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/registry.ts';

/** Geohashes and place names for whatever lacks them. One waiting at a time. */
export const syncPlaces = defineJob({
  kind: 'places.name-places',
  queue: 'maintenance',
  args: z.object({}),
  maxAttempts: 3,
  timeoutMs: 30 * 60_000,
  uniqueKey: () => 'places-sync',
  uses: ['placeNames'],
  handler: (_args, ctx) => ctx.deps.placeNames.syncAsync(),
});

/** Rebuilds one owner's location clusters (all repositories, or one). One per owner at a time: a second request is 409. */
export const rebuildLocationClustersJob = defineJob({
  kind: 'places.rebuild-location-clusters',
  queue: 'maintenance',
  args: z.object({ owner_id: z.number().int(), repository_id: z.string().nullable() }),
  maxAttempts: 3,
  timeoutMs: 30 * 60_000,
  uniqueKey: (a) => `owner:${a.owner_id}`,
  uses: ['locationClusters'],
  handler: (args, ctx) => ctx.deps.locationClusters.runRebuild(args),
});

export const PLACES_JOBS = [syncPlaces, rebuildLocationClustersJob];

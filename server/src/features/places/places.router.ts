import { jsonText } from '../../platform/http/json-text.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './places.routes.ts';
import * as lc from './location-clusters.routes.ts';
import * as pl from './place-list.routes.ts';
import * as ps from './place-search.routes.ts';
import { searchPlaceNames } from './geocoder/place-search.ts';
import { reverseGeocoder } from './geocoder/reverse-geocoder.ts';

export function placesRouter() {
  const { app, services } = routerUsing(['places', 'locationClusters']);
  // The body is the MapPoints document written by the service (kept point JSON, see map-index.ts).
  app.openapi(r.getMapPoints, async (c) => jsonText<r.MapPoints>(c, await services(c).places.mapPointsJson(c.get('actor')!, c.req.valid('query'))));
  app.openapi(lc.listLocationClusters, (c) => c.json(services(c).locationClusters.list(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(lc.rebuildLocationClusters, (c) => c.json(services(c).locationClusters.requestRebuild(c.get('actor')!, c.req.valid('json')?.repository_id ?? null), 200));
  app.openapi(pl.listPlaces, (c) => c.json(services(c).places.placeList.list(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(pl.listPlaceCells, (c) => c.json(services(c).places.placeList.cells(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(ps.searchPlaceNames, async (c) => {
    const q = c.req.valid('query');
    // The gazetteer's files are read without holding the event loop the first time (then it stays in memory).
    if (!reverseGeocoder.isLoaded) await reverseGeocoder.loadAsync();
    return c.json({ places: searchPlaceNames(reverseGeocoder, q.q, q.limit) }, 200);
  });
  app.openapi(pl.getPlace, (c) => c.json(services(c).places.placeList.get(c.get('actor')!, c.req.valid('param').place_id), 200));
  return app;
}

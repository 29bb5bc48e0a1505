/**
 * The map names its clusters by looking up each point's geohash-7 in listPlaceCells
 * (renderer/src/features/map/place-names.ts), so the renderer's geohash must be the server's to the
 * last character: checked on every corpus GPS position and on a spread of points over the globe
 * (poles, antimeridian, cell edges).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { geohash as serverGeohash } from '../../../server/src/features/places/geohash.ts';
import { geohash as mapGeohash } from '../../../renderer/src/features/map/geohash.ts';
import { corpusLabels } from './corpus-places.ts';

test("the map's geohash is the server's, at precisions 1..9, on the corpus positions and across the globe", () => {
  const points: [number, number][] = Object.values(corpusLabels())
    .map((l) => l.expected_metadata.gps)
    .filter((g): g is { lat: number; lon: number } => !!g)
    .map((g) => [g.lat, g.lon]);
  assert.ok(points.length >= 15, 'the corpus GPS labels');
  for (let lat = -90; lat <= 90; lat += 7.3) for (let lon = -180; lon <= 180; lon += 11.7) points.push([lat, lon]);
  points.push([90, 180], [-90, -180], [0, 0], [51.500694, -0.124575], [45, 22.5], [-0.0000001, 179.9999999]);
  for (const [lat, lon] of points) {
    for (let p = 1; p <= 9; p++) assert.equal(mapGeohash(lat, lon, p), serverGeohash(lat, lon, p), `${lat},${lon} at ${p}`);
  }
});

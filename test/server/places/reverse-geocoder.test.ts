/**
 * The offline reverse geocoder (features/places/geocoder) on the corpus GPS positions, the awkward
 * parts of the sphere (antimeridian, poles, open sea, (0, 0)), and its grid index against a scan of
 * every place for random positions.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ReverseGeocoder } from '../../../server/src/features/places/geocoder/reverse-geocoder.ts';
import { geohash, geohashCenter, geohashFields } from '../../../server/src/features/places/geohash.ts';
import { CORPUS_PLACES, corpusLabels } from './corpus-places.ts';

describe('offline reverse geocoder', () => {
  const geocoder = new ReverseGeocoder();

  test('every corpus file with GPS gets the town, region and country of its label; files without get none', () => {
    const labels = corpusLabels();
    for (const [file, label] of Object.entries(labels)) {
      const gps = label.expected_metadata.gps;
      const want = CORPUS_PLACES[file];
      if (!gps) {
        assert.equal(want, undefined, `${file} has no GPS in its labels`);
        continue;
      }
      assert.ok(want, `${file}: expectation written`);
      const place = geocoder.lookup(gps.lat, gps.lon);
      assert.ok(place, `${file}: a place`);
      assert.equal(place.country, want.country, file);
      if (want.region) assert.equal(place.region, want.region, file);
      if (want.city) assert.equal(place.city, want.city, file);
      assert.ok(place.city, `${file}: near a town`);
    }
    assert.equal(Object.keys(CORPUS_PLACES).length, 17);
    const stats = geocoder.loadStats()!;
    assert.ok(stats.places > 150_000, `${stats.places} places loaded`);
  });

  test('(0, 0), out-of-range and non-numbers are no place; open sea and polar ice are none; near a coast only region and country', () => {
    assert.equal(geocoder.lookup(0, 0), null);
    assert.equal(geocoder.lookup(91, 10), null);
    assert.equal(geocoder.lookup(10, -181), null);
    assert.equal(geocoder.lookup(Number.NaN, 10), null);
    assert.equal(geocoder.lookup(0, -160), null, 'mid-Pacific');
    assert.equal(geocoder.lookup(-89.9, 10), null, 'South Pole');
    assert.equal(geocoder.lookup(90, 0), null, 'North Pole');
    const offFiji = geocoder.lookup(-17.8, 179.99);
    assert.equal(offFiji?.country, 'Fiji');
    assert.equal(offFiji?.city, null, 'about 77 km from the nearest town: region and country only');
  });

  test('across the antimeridian the nearest town on the other side is found (both sides agree with a full scan)', () => {
    // Taveuni, Fiji lies across 180°: a point just east of the line must find towns just west of it.
    for (const [lat, lon] of [[-16.8, 179.999], [-16.8, -179.999], [-16.85, -179.95], [65.5, -179.9], [65.5, 179.9]] as const) {
      assert.deepEqual(geocoder.lookup(lat, lon), geocoder.lookupLinear(lat, lon), `${lat},${lon}`);
    }
    assert.equal(geocoder.lookup(-16.8, -179.999)?.country, 'Fiji');
  });

  test('the grid index answers exactly like a scan of every place, for 150 random positions (poles included)', () => {
    let s = 12345;
    const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    let named = 0;
    for (let k = 0; k < 150; k++) {
      // Half anywhere, half near the poles and the antimeridian where the index wraps.
      const lat = k % 2 ? rnd() * 180 - 90 : (rnd() < 0.5 ? -1 : 1) * (60 + rnd() * 30);
      const lon = k % 4 === 1 ? 180 - rnd() * 2 : rnd() * 360 - 180;
      const fast = geocoder.lookup(lat, lon);
      assert.deepEqual(fast, geocoder.lookupLinear(lat, lon), `${lat},${lon}`);
      if (fast) named++;
    }
    assert.ok(named > 10, `${named} of the positions are near a town`);
  });

  test('geohashes: the published example, precision 5 and 7 columns, (0, 0) and no position', () => {
    assert.equal(geohash(57.64911, 10.40744, 11), 'u4pruydqqvj');
    const c = geohashCenter('u4pruyd');
    assert.ok(Math.abs(c.lat - 57.649) < 0.01 && Math.abs(c.lon - 10.407) < 0.01);
    assert.deepEqual(geohashFields(57.64911, 10.40744), { geohash5: 'u4pru', geohash7: 'u4pruyd' });
    assert.deepEqual(geohashFields(0, 0), { geohash5: '', geohash7: '' });
    assert.deepEqual(geohashFields(null, null), { geohash5: null, geohash7: null });
  });
});

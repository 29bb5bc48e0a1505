/**
 * `npm run bench:places`: the offline reverse geocoder (server/src/features/places/geocoder).
 *
 * Prints the gazetteer's load time from its compact file (what every process pays) beside parsing the
 * package's JSON (what every process paid before the compact file, gazetteer-cache.ts), the memory it holds (heap and RSS growth, the grid index's
 * bytes), then reverse-geocoding lookups per second and p50/p99 microseconds through the grid index,
 * against a linear scan of every place in the same run on the same positions (their ratio), and
 * checks the two agree on every position.
 *
 * Positions: half near the gazetteer's own places (jittered up to ~30 km: where photos are taken),
 * half anywhere on the sphere (oceans, poles, the antimeridian included), from a fixed seed.
 *
 * Options: `--lookups N` (default 200000 through the index), `--linear N` (default 300 for the scan:
 * each reads 171k places).
 *
 * Reading the figures: a 2-core VM shared with other people's test runs; take the best of a few runs.
 */
import { parseArgs } from 'node:util';
import { ReverseGeocoder } from '../../server/src/features/places/geocoder/reverse-geocoder.ts';
import { readGazetteer } from '../../server/src/features/places/geocoder/cities-data.ts';
import { loadCompactGazetteer, prebuildCompactGazetteer } from '../../server/src/features/places/geocoder/gazetteer-cache.ts';

const { values } = parseArgs({ options: { lookups: { type: 'string', default: '200000' }, linear: { type: 'string', default: '300' } } });
const LOOKUPS = Number(values.lookups);
const LINEAR = Number(values.linear);

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

// The load before and after the compact file, in the same run: the JSON parse (every process, before),
// then the compact file (made first when missing; every process, now).
{
  let t = performance.now();
  const parsed = readGazetteer();
  const jsonMs = performance.now() - t;
  const made = prebuildCompactGazetteer();
  t = performance.now();
  const compact = loadCompactGazetteer();
  const compactMs = performance.now() - t;
  if (compact.source !== 'compact' || compact.gazetteer.size !== parsed.size) throw new Error(`the compact gazetteer was not used (${compact.rejected ?? 'no file could be written'})`);
  console.log(`gazetteer load: parsing the JSON ${jsonMs.toFixed(0)} ms, the compact file ${compactMs.toFixed(0)} ms (${(jsonMs / compactMs).toFixed(0)}× faster; ${made.file}${made.built ? ', built now' : ''})`);
}

global.gc?.();
const m0 = process.memoryUsage();
const geocoder = new ReverseGeocoder();
const stats = geocoder.load();
global.gc?.();
const m1 = process.memoryUsage();
console.log(`gazetteer: ${stats.places} places, loaded in ${stats.load_ms.toFixed(0)} ms from the ${stats.source === 'compact' ? 'compact file' : 'JSON'}`);
// Held after a collection: JS heap (names) plus typed arrays (positions, codes, the grid), outside the heap.
console.log(
  `memory held: ${mb(m1.heapUsed - m0.heapUsed + m1.arrayBuffers - m0.arrayBuffers)} (heap +${mb(m1.heapUsed - m0.heapUsed)}, typed arrays +${mb(m1.arrayBuffers - m0.arrayBuffers)}, grid index ${mb(stats.index_bytes)}); rss +${mb(m1.rss - m0.rss)} (the load's peak)`,
);

// Positions from a fixed seed (see the top).
let seed = 42;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const g = geocoder.gazetteer();
const positions: [number, number][] = [];
for (let i = 0; i < Math.max(LOOKUPS, LINEAR); i++) {
  if (i % 2 === 0) {
    const k = Math.floor(rnd() * g.size);
    const lat = Math.max(-90, Math.min(90, g.lat[k]! + (rnd() - 0.5) * 0.5));
    let lon = g.lon[k]! + (rnd() - 0.5) * 0.5;
    if (lon > 180) lon -= 360;
    if (lon < -180) lon += 360;
    positions.push([lat, lon]);
  } else positions.push([rnd() * 180 - 90, rnd() * 360 - 180]);
}

function timeLookups(n: number, lookup: (lat: number, lon: number) => unknown): { perSecond: number; p50: number; p99: number; results: unknown[] } {
  const times = new Float64Array(n);
  const results: unknown[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const [lat, lon] = positions[i]!;
    const s = performance.now();
    results.push(lookup(lat, lon));
    times[i] = (performance.now() - s) * 1000;
  }
  const total = performance.now() - t0;
  times.sort();
  return { perSecond: n / (total / 1000), p50: times[Math.floor(n * 0.5)]!, p99: times[Math.min(n - 1, Math.floor(n * 0.99))]!, results };
}

// Warm-up (JIT) on positions not counted.
for (let i = 0; i < 5000; i++) geocoder.lookup(rnd() * 180 - 90, rnd() * 360 - 180);

const fast = timeLookups(LOOKUPS, (lat, lon) => geocoder.lookup(lat, lon));
const slow = timeLookups(LINEAR, (lat, lon) => geocoder.lookupLinear(lat, lon));
let disagree = 0;
for (let i = 0; i < LINEAR; i++) if (JSON.stringify(fast.results[i]) !== JSON.stringify(slow.results[i])) disagree++;
const named = fast.results.filter((r) => r !== null).length;

const fmt = (x: number) => x.toLocaleString('en', { maximumFractionDigits: 1 });
console.log(`grid index:  ${fmt(fast.perSecond)} lookups/s, p50 ${fmt(fast.p50)} µs, p99 ${fmt(fast.p99)} µs (${LOOKUPS} lookups, ${named} named)`);
console.log(`linear scan: ${fmt(slow.perSecond)} lookups/s, p50 ${fmt(slow.p50)} µs, p99 ${fmt(slow.p99)} µs (${LINEAR} lookups)`);
console.log(`ratio: the index is ${fmt(fast.perSecond / slow.perSecond)}× the scan's throughput; p99 ${fmt(slow.p99 / fast.p99)}× lower`);
console.log(`agreement: ${LINEAR - disagree}/${LINEAR} positions answered the same by both`);
if (disagree > 0) process.exitCode = 1;

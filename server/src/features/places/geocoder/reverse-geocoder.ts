/**
 * Offline reverse geocoding: a position → the town, region and country it is in or near, from the
 * GeoNames gazetteer shipped in node_modules (cities-data.ts). No network, ever.
 *
 * Decisions (the contract only names the fields):
 * - The place is the nearest gazetteer town within CITY_RADIUS_KM (50 km: the outskirts, villages
 *   and countryside around a town are named after it, as a household says "near Siena"). Its
 *   region and country come with it.
 * - Farther than that but within AREA_RADIUS_KM (150 km) of a town: only that town's region and
 *   country (city null): a desert, a mountain range or the sea just off a coast.
 * - Farther still: no place at all (open sea, polar ice): better no name than a wrong one.
 * - (0, 0) exactly is an empty GPS block (see map-index.ts), never geocoded; nor are positions
 *   outside -90..90 / -180..180 or not numbers.
 * - Nearest means great-circle distance; across the antimeridian and near the poles the grid
 *   index reads the right cells (grid-index.ts).
 *
 * Loaded once per process at first use, from the compact form of the gazetteer (gazetteer-cache.ts:
 * built once per install from the JSON, then read by every process in tens of milliseconds); the
 * server's jobs read it asynchronously (loadAsync). Before the compact form, measured by `npm run bench:places` (2-core VM at load
 * average 16): 171,075 places, 12.6 s to load under that load (most of it reading and parsing 19 MB
 * of JSON; well under a second on an idle machine), 12 MB held afterwards (names 7 MB, positions and
 * codes 5 MB, the grid 0.9 MB; the parse peaks at ~130 MB RSS); lookups p50 5.7 µs, p99 108 µs,
 * 580× the throughput of a linear scan. `loadStats` reports what the load took.
 *
 * Let go GAZETTEER_IDLE_MS after its last use, and loaded again (from the compact file) at the next: the places
 * job uses it in bursts while an import names new cells, the place-name search and an events rebuild now and
 * then, and between those an idle server kept it for good. Measured in a heap snapshot of the server 60 s
 * after the corpus (scripts/bench/footprint.ts): ~15 MB of its ~56 MB heap (205k name strings and their
 * arrays, the position columns, the grid, the search's folded names), held for nothing. A load from the
 * compact file takes tens of milliseconds, so a search after a quiet spell barely notices.
 */
import { readGazetteer, type Gazetteer, type GazetteerFiles } from './cities-data.ts';
import { loadCompactGazetteer, loadCompactGazetteerAsync, type CompactLoad } from './gazetteer-cache.ts';
import { distanceKm } from './distance.ts';
import { GridIndex, type Nearest } from './grid-index.ts';
import { giveBackMemory } from '../../../platform/cache/give-back-memory.ts';
import { nextTurn } from '../../../platform/cache/slices.ts';

export const CITY_RADIUS_KM = 50;
export const AREA_RADIUS_KM = 150;
/** How far the seat a district's area is named after may be (see resolve). */
export const SEAT_RADIUS_KM = 10;
/** Shown as the clusters' `provider` and stored with each named cell. */
export const GEOCODER_PROVIDER = 'geonames-offline';
/** How long the gazetteer stays loaded after its last use (see the top). */
export const GAZETTEER_IDLE_MS = 20_000;

export interface Place {
  city: string | null;
  region: string | null;
  country: string;
  country_code: string;
  /** Distance to the town the place is named after, km. */
  distance_km: number;
}

export interface LoadStats {
  places: number;
  load_ms: number;
  /** Heap growth while loading, bytes (approximate: the garbage collector may run meanwhile). */
  heap_bytes: number;
  index_bytes: number;
  /** Where the gazetteer came from: its compact file, or the package's JSON (parsed, then the compact file written). */
  source: 'compact' | 'json';
}

/** Whether a position is one to geocode (a real position, not an empty GPS block). */
export function isGeocodable(lat: unknown, lon: unknown): lat is number {
  return (
    typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) &&
    lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 && !(lat === 0 && lon === 0)
  );
}

export class ReverseGeocoder {
  private loaded: { g: Gazetteer; index: GridIndex } | null = null;
  private stats: LoadStats | null = null;

  private reading: Promise<CompactLoad> | null = null;
  /** Date.now() of the last use; the idle timer, armed while loaded, compares against it (no timer reset per lookup). */
  private lastUse = 0;
  private idle: NodeJS.Timeout | null = null;

  /** `idleMs`: let the gazetteer go this long after its last use (Infinity: keep it). */
  constructor(private readonly idleMs: number = GAZETTEER_IDLE_MS) {}

  /**
   * Loads the gazetteer with its file read asynchronously (the server's jobs call this before their
   * lookups: only the decode holds the event loop; the JSON parse, once per install).
   */
  async loadAsync(): Promise<LoadStats> {
    if (this.loaded) {
      this.used();
      return this.stats!;
    }
    const t0 = performance.now();
    const heap = process.memoryUsage().heapUsed;
    this.reading ??= loadCompactGazetteerAsync().finally(() => (this.reading = null));
    const got = await this.reading;
    // The grid index (two passes over 171k places) in a turn of its own, not on top of the decode's last step.
    await nextTurn();
    return this.loaded ? this.stats! : this.keep(got.gazetteer, got.source, t0, heap);
  }

  /** Loads the gazetteer now (otherwise the first lookup does); `files`: parse these instead (no compact file). */
  load(files?: GazetteerFiles, started = performance.now()): LoadStats {
    if (this.loaded) {
      this.used();
      return this.stats!;
    }
    const heap = process.memoryUsage().heapUsed;
    if (files) return this.keep(readGazetteer(files), 'json', started, heap);
    const got = loadCompactGazetteer();
    return this.keep(got.gazetteer, got.source, started, heap);
  }

  private keep(g: Gazetteer, source: LoadStats['source'], started: number, heap: number): LoadStats {
    const index = new GridIndex(g.lat, g.lon, g.size);
    this.loaded = { g, index };
    this.used();
    this.stats = {
      places: g.size,
      load_ms: performance.now() - started,
      heap_bytes: Math.max(0, process.memoryUsage().heapUsed - heap),
      index_bytes: index.bytes(),
      source,
    };
    return this.stats;
  }

  /** The gazetteer itself (loaded now when it is not yet), for the place-name search (place-search.ts). */
  gazetteer(): Gazetteer {
    this.load();
    return this.loaded!.g;
  }

  get isLoaded(): boolean {
    return this.loaded !== null;
  }

  /** Lets the gazetteer go now (the idle timer's doing; a closing process need not wait for it). */
  release(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (!this.loaded) return;
    this.loaded = null;
    giveBackMemory();
  }

  /** Notes a use; the timer armed at the first one lets go `idleMs` after the last (re-armed for what is left). */
  private used(): void {
    this.lastUse = Date.now();
    if (this.idle || !Number.isFinite(this.idleMs)) return;
    const arm = (ms: number) => {
      this.idle = setTimeout(() => {
        this.idle = null;
        const left = this.lastUse + this.idleMs - Date.now();
        if (left > 0) arm(left);
        else this.release();
      }, ms);
      this.idle.unref(); // never keeps a process (a script, a test) alive
    };
    arm(this.idleMs);
  }

  loadStats(): LoadStats | null {
    return this.stats;
  }

  /** The place of a position, or null (no position, or nowhere near a town: see the top). */
  lookup(lat: number, lon: number): Place | null {
    if (!isGeocodable(lat, lon)) return null;
    this.load();
    const { g, index } = this.loaded!;
    return resolve(g, lat, lon, (radius, accept) => index.nearest(lat, lon, radius, accept));
  }

  /** The same answer by reading every place (the benchmark's baseline and the tests' check of the index). */
  lookupLinear(lat: number, lon: number): Place | null {
    if (!isGeocodable(lat, lon)) return null;
    this.load();
    const { g } = this.loaded!;
    return resolve(g, lat, lon, (radius, accept) => {
      let best = -1;
      let bestKm = radius;
      for (let i = 0; i < g.size; i++) {
        const km = distanceKm(lat, lon, g.lat[i]!, g.lon[i]!);
        if (km <= bestKm && (accept === undefined || accept(i))) {
          bestKm = km;
          best = i;
        }
      }
      return best < 0 ? null : { index: best, km: bestKm };
    });
  }
}

type NearestFn = (radiusKm: number, accept?: (index: number) => boolean) => Nearest | null;

const words = (s: string) => ` ${s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;

/**
 * The town a position is named after (see the top), with the district rule: GeoNames lists city
 * districts as places of their own ("Länsisatama", "The Rocks", "City of Westminster") and the
 * package carries no population to prefer the city by, so the nearest place is often a district.
 * A household says "Helsinki". When a place named like the nearest place's county/district or
 * region ("Helsinki sub-region", "Greater London", "Sydney") lies within SEAT_RADIUS_KM, that place
 * is the city instead: the seat the area is named after.
 */
function resolve(g: Gazetteer, lat: number, lon: number, nearest: NearestFn): Place | null {
  let near = nearest(CITY_RADIUS_KM);
  if (near) {
    const self = near.index;
    const a = g.area[self]!;
    const r = g.region[self]!;
    const named = [a >= 0 ? words(g.areas[a]!) : '', r >= 0 ? words(g.regions[r]!) : ''].join('|');
    if (!named.includes(words(g.name[self]!))) {
      const seat = nearest(SEAT_RADIUS_KM, (i) => named.includes(words(g.name[i]!)));
      if (seat) near = seat;
    }
  } else near = nearest(AREA_RADIUS_KM);
  if (!near) return null;
  const i = near.index;
  const r = g.region[i]!;
  return {
    city: near.km <= CITY_RADIUS_KM ? g.name[i]! : null,
    region: r >= 0 ? g.regions[r]! : null,
    country: g.countries[g.country[i]!]!,
    country_code: g.countryCodes[g.country[i]!]!,
    distance_km: Math.round(near.km * 10) / 10,
  };
}

/** The process's geocoder: one gazetteer in memory however many catalogs use it. */
export const reverseGeocoder = new ReverseGeocoder();

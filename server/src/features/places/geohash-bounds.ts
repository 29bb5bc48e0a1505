/** The box a geohash cell covers, and the box around many cells (for the parser's "in Lisbon" filter). */
import { geohashCenter } from './geohash.ts';

export interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

/** Height and width of a cell of `precision` characters, in degrees. */
function cellSize(precision: number): { lat: number; lon: number } {
  const bits = precision * 5;
  const lonBits = Math.ceil(bits / 2);
  const latBits = Math.floor(bits / 2);
  return { lat: 180 / 2 ** latBits, lon: 360 / 2 ** lonBits };
}

export function geohashBounds(hash: string): Box {
  const c = geohashCenter(hash);
  const s = cellSize(hash.length);
  return { south: c.lat - s.lat / 2, north: c.lat + s.lat / 2, west: c.lon - s.lon / 2, east: c.lon + s.lon / 2 };
}

/**
 * The smallest box around the cells. When the cells lie on both sides of the antimeridian and the
 * box the other way round is narrower (Fiji: 177° E to 179° W), it is given across it (west > east),
 * as queryAssets' location filter reads it.
 */
export function boundsOf(hashes: readonly string[]): Box | null {
  if (!hashes.length) return null;
  let south = 90;
  let north = -90;
  let west = 180;
  let east = -180;
  // The eastern-hemisphere cells' westmost edge and the western cells' eastmost edge, for the crossing box.
  let eastWest = 180;
  let westEast = -180;
  for (const h of hashes) {
    const b = geohashBounds(h);
    south = Math.min(south, b.south);
    north = Math.max(north, b.north);
    west = Math.min(west, b.west);
    east = Math.max(east, b.east);
    if (b.west >= 0) eastWest = Math.min(eastWest, b.west);
    else westEast = Math.max(westEast, b.east);
  }
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  const across = eastWest < 180 && westEast > -180 && 360 - (eastWest - westEast) < east - west;
  return across
    ? { south: round(south), north: round(north), west: round(eastWest), east: round(westEast) }
    : { south: round(south), north: round(north), west: round(west), east: round(east) };
}

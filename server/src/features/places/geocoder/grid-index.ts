/**
 * A latitude/longitude grid over points on the sphere: 1° cells, each cell's points stored together
 * (compressed rows: `start[cell]..start[cell + 1]` in `order`). A radius query visits only the cells
 * that can hold a point within the radius, so a lookup reads a few hundred points instead of 171k.
 *
 * Why a grid and not a k-d tree: places are given in degrees and queried by a radius in km; the
 * grid handles the two awkward parts of the sphere directly. Across the antimeridian the column
 * index wraps (a query at 179.9° also reads the cells at -180°); near a pole a degree of longitude
 * shrinks to nothing, so when the radius reaches the pole every column of the polar rows is read.
 */
import { KM_PER_DEGREE, distanceKm } from './distance.ts';

const ROWS = 180;
const COLS = 360;

const rowOf = (lat: number) => Math.min(ROWS - 1, Math.max(0, Math.floor(lat + 90)));
const colOf = (lon: number) => ((Math.floor(lon + 180) % COLS) + COLS) % COLS;

export interface Nearest {
  index: number;
  km: number;
}

export class GridIndex {
  private readonly start: Uint32Array;
  private readonly order: Uint32Array;

  constructor(
    private readonly lat: Float64Array,
    private readonly lon: Float64Array,
    size: number,
  ) {
    const count = new Uint32Array(ROWS * COLS + 1);
    const cellOf = new Uint32Array(size);
    for (let i = 0; i < size; i++) {
      const cell = rowOf(lat[i]!) * COLS + colOf(lon[i]!);
      cellOf[i] = cell;
      count[cell + 1]!++;
    }
    for (let c = 0; c < ROWS * COLS; c++) count[c + 1]! += count[c]!;
    this.start = count.slice();
    this.order = new Uint32Array(size);
    const fill = count; // reused as the write cursor of each cell
    for (let i = 0; i < size; i++) this.order[fill[cellOf[i]!]!++] = i;
  }

  /** Bytes held by the index (not counting the positions it reads). */
  bytes(): number {
    return this.start.byteLength + this.order.byteLength;
  }

  /** The nearest point within `radiusKm` (of those `accept` takes, when given), or null. */
  nearest(lat: number, lon: number, radiusKm: number, accept?: (index: number) => boolean): Nearest | null {
    const dLat = radiusKm / KM_PER_DEGREE;
    const south = lat - dLat;
    const north = lat + dLat;
    const r0 = rowOf(south);
    const r1 = rowOf(north);
    // The widest the circle gets in longitude is at its latitude nearest a pole.
    const edge = Math.max(Math.abs(south), Math.abs(north));
    const cos = Math.cos((Math.min(90, edge) * Math.PI) / 180);
    const allColumns = edge >= 90 || dLat / Math.max(cos, 1e-9) >= 180;
    const dLon = allColumns ? 180 : dLat / cos;
    const c0 = Math.floor(lon - dLon + 180);
    const c1 = Math.floor(lon + dLon + 180);
    const span = allColumns ? COLS : Math.min(COLS, c1 - c0 + 1);
    let best = -1;
    let bestKm = radiusKm;
    for (let r = r0; r <= r1; r++) {
      for (let k = 0; k < span; k++) {
        const c = allColumns ? k : (((c0 + k) % COLS) + COLS) % COLS;
        const cell = r * COLS + c;
        for (let j = this.start[cell]!, end = this.start[cell + 1]!; j < end; j++) {
          const i = this.order[j]!;
          // Cheap reject on latitude alone before the trigonometry.
          if (Math.abs(this.lat[i]! - lat) > dLat) continue;
          const km = distanceKm(lat, lon, this.lat[i]!, this.lon[i]!);
          if (km <= bestKm && (accept === undefined || accept(i))) {
            bestKm = km;
            best = i;
          }
        }
      }
    }
    return best < 0 ? null : { index: best, km: bestKm };
  }
}

/**
 * Vertical text written as a column of upright characters (Japanese and Chinese signs, shop curtains, book
 * spines in CJK). Turning such a column by 90° (what crop.ts does for every tall box, and right for a Latin line
 * printed sideways) lays every character on its side, and the recogniser, trained on horizontal lines, reads one
 * or two of them at best ("番" of "キリン一番搾り"). So a tall box is also read a second way: the column is cut
 * into character cells and the cells are set side by side, upright, into a horizontal strip; recognise.ts keeps
 * whichever reading the recogniser is surer of over more characters.
 *
 * Cutting: the column is scaled to the strip height (48 px wide), so a CJK character, about as tall as the
 * column is wide, is about 48 px tall. Cuts are chosen by dynamic programming over the rows: a cut costs the ink
 * in the rows it passes through (ink = pixels far from the column's median brightness, the background), and a
 * cell costs its squared deviation from that 48-px pitch; the cheapest cutting wins. A short character ("一",
 * "ン") then shares a cell with blank rows rather than being merged with its neighbour.
 */
import { warpQuad } from './crop.ts';
import { distance } from './geometry.ts';
import type { Quad, RgbImage } from './types.ts';

/** How far (0..255) from the background a pixel's brightness must be to count as ink. */
const INK_CONTRAST = 48;
/**
 * Weight of the ink a cut passes through (share of the row, 0..1) against a cell's squared relative deviation
 * from the pitch: cutting through a stroke must cost more than a cell a third taller or shorter than the pitch.
 */
const INK_WEIGHT = 10;

function luminance(img: RgbImage): Float32Array {
  const out = new Float32Array(img.width * img.height);
  for (let i = 0; i < out.length; i++) out[i] = 0.299 * img.data[i * 3]! + 0.587 * img.data[i * 3 + 1]! + 0.114 * img.data[i * 3 + 2]!;
  return out;
}

/** Share of ink pixels per row. */
export function rowInk(img: RgbImage): Float32Array {
  const lum = luminance(img);
  const sorted = Float32Array.from(lum).sort();
  const background = sorted[sorted.length >> 1]!;
  const ink = new Float32Array(img.height);
  for (let y = 0; y < img.height; y++) {
    let n = 0;
    for (let x = 0; x < img.width; x++) if (Math.abs(lum[y * img.width + x]! - background) > INK_CONTRAST) n++;
    ink[y] = n / img.width;
  }
  return ink;
}

/**
 * Where to cut a column of `ink.length` rows into cells about `pitch` rows tall: the row indices of the cells'
 * starts and of the end ([0, …, length]).
 */
export function cellCuts(ink: Float32Array, pitch: number): number[] {
  const n = ink.length;
  const minLen = Math.max(1, Math.round(pitch * 0.5));
  const maxLen = Math.round(pitch * 1.5);
  const cost = new Float64Array(n + 1).fill(Infinity);
  const from = new Int32Array(n + 1).fill(-1);
  cost[0] = 0;
  const cutCost = (y: number) => (y <= 0 || y >= n ? 0 : (ink[y - 1]! + ink[y]!) / 2);
  for (let y = 1; y <= n; y++) {
    // The last cell may be short: the column's end is where it is.
    const shortest = y === n ? 1 : minLen;
    for (let len = shortest; len <= maxLen && len <= y; len++) {
      const prev = y - len;
      if (cost[prev] === Infinity) continue;
      const dev = (len - pitch) / pitch;
      const c = cost[prev]! + INK_WEIGHT * cutCost(y) + dev * dev;
      if (c < cost[y]!) {
        cost[y] = c;
        from[y] = prev;
      }
    }
  }
  const cuts = [n];
  for (let y = n; y > 0; y = from[y]!) {
    if (from[y]! < 0) return [0, n]; // unreachable only for a column shorter than a cell: one cell
    cuts.push(from[y]!);
  }
  return cuts.reverse();
}

/**
 * The column in `quad` (an upright box, taller than wide) as a horizontal strip `height` px high: its character
 * cells side by side, each centred in a `height`-wide square (shrunk to fit when taller than that).
 */
export function stackColumn(img: RgbImage, quad: Quad, height: number, pitch: number = height): RgbImage {
  const w = Math.max(distance(quad[0], quad[1]), distance(quad[3], quad[2]));
  const h = Math.max(distance(quad[0], quad[3]), distance(quad[1], quad[2]));
  const column = warpQuad(img, quad, height, Math.max(1, Math.round((height * h) / Math.max(w, 1))));
  const cuts = cellCuts(rowInk(column), pitch);
  const cells = cuts.length - 1;
  const lum = luminance(column);
  const sortedIdx = Array.from(lum.keys()).sort((a, b) => lum[a]! - lum[b]!);
  const bgIndex = sortedIdx[sortedIdx.length >> 1]!; // a pixel of median brightness gives the fill colour
  const fill = [column.data[bgIndex * 3]!, column.data[bgIndex * 3 + 1]!, column.data[bgIndex * 3 + 2]!];
  const out = new Uint8Array(cells * height * height * 3);
  for (let i = 0; i < out.length; i += 3) out.set(fill, i);
  const outWidth = cells * height;
  for (let c = 0; c < cells; c++) {
    const top = cuts[c]!, len = cuts[c + 1]! - top;
    const scale = Math.min(1, height / len); // a cell taller than the square is shrunk into it
    const cellW = Math.max(1, Math.round(height * scale)), cellH = Math.max(1, Math.round(len * scale));
    const ox = c * height + ((height - cellW) >> 1), oy = (height - cellH) >> 1;
    for (let y = 0; y < cellH; y++) {
      const sy = Math.min(column.height - 1, top + Math.floor(y / scale));
      for (let x = 0; x < cellW; x++) {
        const sx = Math.min(column.width - 1, Math.floor(x / scale));
        const s = (sy * column.width + sx) * 3, d = ((oy + y) * outWidth + ox + x) * 3;
        out[d] = column.data[s]!;
        out[d + 1] = column.data[s + 1]!;
        out[d + 2] = column.data[s + 2]!;
      }
    }
  }
  return { data: out, width: outWidth, height };
}

/**
 * The event map's geometry (EventMap.tsx), apart from the drawing: the frame around the photos' dots
 * and the dots close enough on screen to share one. Map units are map/world.ts's (degrees).
 */
export interface Dot {
  assetId: string;
  name: string;
  x: number;
  y: number;
}

/** At least this many map units (degrees) wide, so one spot still shows the land around it. */
const MIN_SPAN = 1.2;

/** The map's frame (viewBox) around the dots, 2:1 like the world, with a margin. */
export function frameOf(dots: readonly { x: number; y: number }[], world: { width: number; height: number }): { x: number; y: number; w: number; h: number } {
  const xs = dots.map((d) => d.x);
  const ys = dots.map((d) => d.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  let w = Math.max(MIN_SPAN, (x1 - x0) * 1.4);
  let h = Math.max(MIN_SPAN / 2, (y1 - y0) * 1.4);
  if (w < h * 2) w = h * 2;
  else h = w / 2;
  w = Math.min(w, world.width);
  h = Math.min(h, world.height);
  return { x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - h / 2, w, h };
}

/** Dots per frame width that stay apart; closer ones share a dot. */
export const CELLS_ACROSS = 30;

/** Dots in square cells of `cell` map units, each group at the mean of its dots, in the event's order. */
export function groupDots(dots: readonly Dot[], cell: number): { x: number; y: number; dots: Dot[] }[] {
  const cells = new Map<string, { x: number; y: number; dots: Dot[] }>();
  for (const d of dots) {
    const key = `${Math.floor(d.x / cell)}:${Math.floor(d.y / cell)}`;
    let g = cells.get(key);
    if (!g) cells.set(key, (g = { x: 0, y: 0, dots: [] }));
    g.dots.push(d);
    g.x += d.x;
    g.y += d.y;
  }
  return [...cells.values()].map((g) => ({ ...g, x: g.x / g.dots.length, y: g.y / g.dots.length }));
}


/**
 * Where pins sit on the Board: a 12-column grid of rows (the server's `layout` {x, y, w, h}: x + w ≤ 12, w 1–12,
 * h 1–24). Pure functions, so the moves are the same whether a mouse drags, a key nudges or a finger taps
 * "Move down".
 *
 * Decisions (the contract stores the layout and says nothing of how it is kept tidy):
 * - No two pins overlap. A pin dragged or resized takes the place asked for; the others keep theirs unless it
 *   overlaps, and then they go down below it (no packing upward: a gap a member left stays theirs).
 * - The reading order is by row, then column. A phone shows the pins in one column in that order, so the order
 *   is kept from the desktop's layout; "Move up/down" on a phone swaps two neighbours' places and then keeps
 *   the new order as it pushes overlaps down, so the desktop sees the same swap.
 */
export interface Layout {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Placed {
  id: string;
  layout: Layout;
}

export const COLUMNS = 12;

/** The sizes offered in a card's Size menu (columns × rows). */
export const SIZES = [
  { label: 'Small', w: 3, h: 3 },
  { label: 'Medium', w: 4, h: 4 },
  { label: 'Wide', w: 6, h: 4 },
  { label: 'Large', w: 6, h: 6 },
  { label: 'Full width', w: 12, h: 4 },
] as const;

export function sizeLabel(l: Layout): string {
  return SIZES.find((s) => s.w === l.w && s.h === l.h)?.label ?? `${l.w} × ${l.h}`;
}

/** Row, then column; equal places keep their given order. */
export function readingOrder<T extends { layout: Layout }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x);
}

const overlaps = (a: Layout, b: Layout) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

const fit = (l: Layout): Layout => {
  const w = Math.min(Math.max(1, l.w), COLUMNS);
  return { x: Math.min(Math.max(0, l.x), COLUMNS - w), y: Math.max(0, l.y), w, h: Math.max(1, l.h) };
};

/**
 * Places the pins one after another in `order`: each at its own place, or pushed down below whatever placed
 * before it would overlap. With `keepOrder`, a pin also never lands before the one placed just before it in the
 * reading order (the phone's moves).
 */
function settle(order: readonly Placed[], keepOrder: boolean): Placed[] {
  const placed: Placed[] = [];
  for (const p of order) {
    const l = fit(p.layout);
    const prev = keepOrder ? placed.at(-1)?.layout : undefined;
    if (prev) l.y = Math.max(l.y, prev.y);
    for (;;) {
      if (prev && l.y === prev.y && l.x <= prev.x) {
        l.y = prev.y + 1;
        continue;
      }
      const hit = placed.find((q) => overlaps(q.layout, l));
      if (!hit) break;
      l.y = hit.layout.y + hit.layout.h;
    }
    placed.push({ id: p.id, layout: l });
  }
  return placed;
}

/** The pins whose place differs from before (what the server is told). */
export function changes(before: readonly Placed[], after: readonly Placed[]): { pin_id: string; layout: Layout }[] {
  const old = new Map(before.map((p) => [p.id, p.layout]));
  return after
    .filter((p) => {
      const o = old.get(p.id);
      return !o || o.x !== p.layout.x || o.y !== p.layout.y || o.w !== p.layout.w || o.h !== p.layout.h;
    })
    .map((p) => ({ pin_id: p.id, layout: p.layout }));
}

/** The board with one pin given a new place or size; the others make room below it. */
export function place(pins: readonly Placed[], id: string, to: Partial<Layout>): Placed[] {
  const moved = pins.find((p) => p.id === id);
  if (!moved) return [...pins];
  const first = { id, layout: fit({ ...moved.layout, ...to }) };
  return settle([first, ...readingOrder(pins.filter((p) => p.id !== id))], false);
}

/** The board with a pin swapped with its neighbour in the reading order (-1 up, +1 down); null at either end. */
export function step(pins: readonly Placed[], id: string, delta: -1 | 1): Placed[] | null {
  const order = readingOrder(pins);
  const i = order.findIndex((p) => p.id === id);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= order.length) return null;
  const [a, b] = [order[i]!, order[j]!];
  const swapped = order.map((p) => {
    if (p === a) return { id: a.id, layout: { ...a.layout, x: b.layout.x, y: b.layout.y } };
    if (p === b) return { id: b.id, layout: { ...b.layout, x: a.layout.x, y: a.layout.y } };
    return p;
  });
  [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
  return settle(swapped, true);
}

/**
 * The pins laid out: on a desktop a 12-column grid of 56 px rows where each pin sits at its saved place
 * (drag its handle to move it: the other pins make room as it goes and the new places are saved when it is
 * let go; arrow keys on the handle move it a cell; Escape during a drag puts everything back); on a phone
 * (860 px or narrower, where the app's layout turns to one column too), and wherever the board itself has less
 * than NARROW_BOARD_PX (a desktop with the assistant panel open beside it: a 4-column pin was too narrow for its
 * title), one column in the reading order of the layout, with Move up and Move down.
 *
 * The list is always in reading order in the page, so a screen reader and the phone read the pins in the order
 * the desktop shows them.
 */
import { useRef, useState } from 'react';
import { messageOf } from '../../api/problem';
import { useElementSize } from '../../lib/use-element-size';
import { useMediaQuery } from '../../lib/use-media-query';
import { useLayoutPins, type Pin } from './board-api';
import { changes, COLUMNS, place, readingOrder, step, type Layout, type Placed } from './board-layout';
import { PinCard } from './PinCard';

/** Row height and gap in px: keep them as board.css has them (--board-row, --board-gap). */
const ROW = 56;
const GAP = 12;
export const ONE_COLUMN = '(max-width: 860px)';
/** The board's own width under which 12 columns are too narrow (a 4-column pin under ~280 px): one column then. */
const NARROW_BOARD_PX = 860;

interface Drag {
  id: string;
  pointerId: number;
  start: Placed[];
  /** Which cell of the pin the pointer holds, so the pin does not jump to put its corner under the pointer. */
  grab: { col: number; row: number };
}

export function BoardGrid({ pins }: { pins: Pin[] }) {
  const phone = useMediaQuery(ONE_COLUMN);
  const grid = useRef<HTMLOListElement>(null);
  const width = useElementSize(grid)?.width ?? null;
  const oneColumn = phone || (width !== null && width < NARROW_BOARD_PX);
  const save = useLayoutPins();
  const [preview, setPreview] = useState<Placed[] | null>(null);
  const [said, setSaid] = useState('');
  const drag = useRef<Drag | null>(null);

  const saved: Placed[] = pins.map((p) => ({ id: p.pin_id, layout: p.layout }));
  const shown = new Map((preview ?? saved).map((p) => [p.id, p.layout]));
  // In the saved reading order even while a drag shows other places: moving the dragged card's node in the page
  // would end its pointer capture (a node taken out of the document loses it), and with it the drag.
  const ordered = readingOrder(pins).map((p) => ({ pin: p, layout: shown.get(p.pin_id) ?? p.layout }));
  const titleOf = (id: string) => pins.find((p) => p.pin_id === id)?.title ?? 'The pin';

  const commit = (after: Placed[], id: string, words: string) => {
    const moves = changes(saved, after);
    if (moves.length > 0) save.mutate(moves);
    setSaid(moves.length > 0 ? `${titleOf(id)} ${words}.` : '');
  };

  const cellAt = (clientX: number, clientY: number) => {
    const r = grid.current!.getBoundingClientRect();
    const col = Math.floor(((clientX - r.left) * COLUMNS) / (r.width + GAP));
    return { col: Math.min(Math.max(col, 0), COLUMNS - 1), row: Math.max(0, Math.floor((clientY - r.top) / (ROW + GAP))) };
  };
  const where = (l: Layout) => `moved to row ${l.y + 1}, column ${l.x + 1}`;

  const handle = (id: string, l: Layout): React.HTMLAttributes<HTMLButtonElement> => ({
    onPointerDown: (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      e.currentTarget.setPointerCapture(e.pointerId);
      const at = cellAt(e.clientX, e.clientY);
      drag.current = { id, pointerId: e.pointerId, start: saved, grab: { col: at.col - l.x, row: at.row - l.y } };
    },
    onPointerMove: (e) => {
      const d = drag.current;
      if (!d || d.pointerId !== e.pointerId) return;
      const at = cellAt(e.clientX, e.clientY);
      setPreview(place(d.start, d.id, { x: at.col - d.grab.col, y: Math.max(0, at.row - d.grab.row) }));
    },
    onPointerUp: (e) => {
      const d = drag.current;
      if (!d || d.pointerId !== e.pointerId) return;
      drag.current = null;
      if (preview) commit(preview, d.id, where(shown.get(d.id)!));
      setPreview(null);
    },
    onPointerCancel: () => {
      drag.current = null;
      setPreview(null);
    },
    onKeyDown: (e) => {
      if (e.key === 'Escape' && drag.current) {
        drag.current = null;
        setPreview(null);
        return;
      }
      const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (!d) return;
      e.preventDefault();
      const after = place(saved, id, { x: l.x + d[0]!, y: Math.max(0, l.y + d[1]!) });
      commit(after, id, where(after.find((p) => p.id === id)!.layout));
    },
  });

  return (
    <>
      <ol ref={grid} className={`board ${oneColumn ? 'board--column' : 'board--grid'}`} aria-label="Pins">
        {ordered.map(({ pin, layout }, i) => (
          <PinCard
            key={pin.pin_id}
            pin={pin}
            style={oneColumn ? undefined : { gridColumn: `${layout.x + 1} / span ${layout.w}`, gridRow: `${layout.y + 1} / span ${layout.h}` }}
            moves={
              oneColumn
                ? {
                    busy: save.isPending,
                    ...(i > 0 ? { up: () => commit(step(saved, pin.pin_id, -1)!, pin.pin_id, 'moved up') } : {}),
                    ...(i < ordered.length - 1 ? { down: () => commit(step(saved, pin.pin_id, 1)!, pin.pin_id, 'moved down') } : {}),
                  }
                : {
                    handle: handle(pin.pin_id, layout),
                    dragging: drag.current?.id === pin.pin_id && preview !== null,
                    resize: (size) => commit(place(saved, pin.pin_id, size), pin.pin_id, `is now ${size.w} columns by ${size.h} rows`),
                  }
            }
          />
        ))}
      </ol>
      <p className="visually-hidden" role="status">
        {said}
      </p>
      {save.isError && (
        <p className="notice notice--error" role="alert">
          The new places were not saved: {messageOf(save.error)}
        </p>
      )}
    </>
  );
}

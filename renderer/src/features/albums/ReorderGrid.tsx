/**
 * The album in reorder mode: every photo as a tile in album order, to be put in a new place.
 * Three ways, one result (use-album-order.ts sends each move):
 * - drag a tile (mouse: press and move; touch: hold, then drag; use-reorder-drag.ts);
 * - a focused tile's arrow keys: ← or ↑ one place earlier, → or ↓ one later, Home first, End last;
 * - each tile's "earlier" and "later" buttons (touch screens without a steady hand, switch access).
 * Every move is announced (a live region), and focus stays on the photo that moved.
 *
 * Not virtualised like the timeline: albums are hundreds of photos, not the whole library, and the
 * thumbnails load as they scroll into view.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Thumbnail } from '../../photos/Thumbnail';
import type { AlbumAsset } from './albums-api';
import { arrayMove } from './use-album-order';
import { useReorderDrag } from './use-reorder-drag';

interface ReorderGridProps {
  members: readonly AlbumAsset[];
  order: readonly string[];
  onMove: (assetId: string, to: number) => void;
}

export function ReorderGrid({ members, order, onMove }: ReorderGridProps) {
  const byId = useMemo(() => new Map(members.map((m) => [m.asset_id, m])), [members]);
  const grid = useRef<HTMLOListElement>(null);
  const tiles = useRef(new Map<string, HTMLButtonElement>());
  const [said, setSaid] = useState('');
  const [focusAfterMove, setFocusAfterMove] = useState<string | null>(null);
  const hintId = useId();
  const nameOf = (id: string) => byId.get(id)?.original_filename ?? 'Photo';

  const moveTo = (id: string, to: number) => {
    const from = order.indexOf(id);
    if (from < 0 || to < 0 || to >= order.length || to === from) return;
    onMove(id, to);
    setSaid(`${nameOf(id)} moved to place ${to + 1} of ${order.length}.`);
    setFocusAfterMove(id);
  };
  const { drag, start } = useReorderDrag({ grid, onDrop: moveTo });

  // React may move the focused tile's element when the order changes, which drops focus: put it back.
  useEffect(() => {
    if (!focusAfterMove) return;
    const el = tiles.current.get(focusAfterMove);
    const active = document.activeElement;
    if (el && active !== el && (active === document.body || (active && grid.current?.contains(active)))) el.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove, order]);

  const shown = drag ? arrayMove(order, drag.from, drag.over) : order;
  const lifted = drag ? byId.get(drag.id) : undefined;

  const onKeyDown = (id: string, index: number) => (e: React.KeyboardEvent) => {
    const to = { ArrowLeft: index - 1, ArrowUp: index - 1, ArrowRight: index + 1, ArrowDown: index + 1, Home: 0, End: order.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    moveTo(id, to);
  };

  return (
    <>
      <p className="reorder__hint" id={hintId}>
        Drag photos to a new place (on a touch screen, touch and hold a photo first). Or use a photo’s arrows, or its arrow keys when it has focus.
      </p>
      <ol ref={grid} className={drag ? 'reorder reorder--dragging' : 'reorder'} aria-label="Album order" aria-describedby={hintId}>
        {shown.map((id, i) => {
          const name = nameOf(id);
          const asset = byId.get(id);
          return (
            <li key={id} className={drag?.id === id ? 'reorder__cell reorder__cell--lifted' : 'reorder__cell'} data-reorder-slot="">
              <button
                ref={(el) => {
                  if (el) tiles.current.set(id, el);
                  else tiles.current.delete(id);
                }}
                type="button"
                className="reorder__tile"
                data-reorder-handle=""
                aria-label={`${name}, place ${i + 1} of ${shown.length}`}
                aria-describedby={hintId}
                onPointerDown={start(id, i)}
                onKeyDown={onKeyDown(id, i)}
                onContextMenu={(e) => e.preventDefault()}
              >
                {asset && <Thumbnail assetId={id} size="small" alt="" className="reorder__image" fallback={<span className="reorder__blank">{name}</span>} />}
                <span className="reorder__place" aria-hidden="true">
                  {i + 1}
                </span>
              </button>
              <span className="reorder__steps">
                <button type="button" className="reorder__step" aria-label={`Move ${name} earlier`} disabled={i === 0} onClick={() => moveTo(id, i - 1)}>
                  ‹
                </button>
                <button type="button" className="reorder__step" aria-label={`Move ${name} later`} disabled={i === shown.length - 1} onClick={() => moveTo(id, i + 1)}>
                  ›
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      {drag && lifted && (
        <div
          className="reorder__ghost"
          aria-hidden="true"
          style={{ width: drag.width, height: drag.height, transform: `translate(${drag.x - drag.grabX}px, ${drag.y - drag.grabY}px)` }}
        >
          <Thumbnail assetId={lifted.asset_id} size="small" alt="" className="reorder__image" fallback={<span className="reorder__blank" />} />
        </div>
      )}
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </>
  );
}

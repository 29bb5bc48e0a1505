/**
 * Keyboard use of a photo grid (the timeline, an album, a folder, favourites, trash: all are a
 * Timeline), as the ARIA grid pattern has it:
 * - the grid is ONE stop in the Tab order (a roving tabindex): Tab reaches the last tile used, or the
 *   first one on screen, and the next Tab leaves the grid, rather than walking thousands of tiles;
 * - ←/→ move to the previous/next photo, ↑/↓ to the photo nearest the same place across in the row
 *   above or below (month headers are passed over), Home/End to the first/last photo loaded, PageUp/PageDown by
 *   a screenful of rows;
 * - Enter opens the photo, Space selects it (Shift+Space selects the range from the last one).
 *
 * The grid is virtualised: a tile far away is not in the page. Moving there scrolls the window to
 * its row first and focuses the tile once it is drawn. Tiles carry `data-index` (their place in the
 * list) so the focused one can be found again.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { rowIndexOf, targetOf, typicalRowHeight } from './grid-moves';
import type { TimelineLayout } from './timeline-layout';

/** The selector of tile `index`'s focusable button inside the grid. */
const tileSelector = (index: number) => `[data-index="${index}"] .tile`;

interface GridKeysOptions {
  grid: React.RefObject<HTMLElement | null>;
  layout: TimelineLayout;
  count: number;
  /** The indices of the tiles in the page now (the virtualised range). */
  rendered: readonly number[];
  onOpen: (index: number) => void;
  onToggleSelect: (index: number, range: boolean) => void;
}

export function useGridKeys({ grid, layout, count, rendered, onOpen, onToggleSelect }: GridKeysOptions) {
  const [active, setActive] = useState(0);
  const pending = useRef<number | null>(null);

  const focusTile = useCallback(
    (index: number) => {
      setActive(index);
      const el = grid.current?.querySelector<HTMLElement>(tileSelector(index));
      if (el) {
        el.focus();
        return;
      }
      // Not drawn (virtualised away): bring its row into view; the effect below focuses it once drawn.
      pending.current = index;
      const row = layout.rows[rowIndexOf(layout.rows, index)];
      const top = grid.current ? grid.current.getBoundingClientRect().top + window.scrollY : 0;
      if (row) window.scrollTo({ top: top + row.top - window.innerHeight / 3 });
    },
    [grid, layout],
  );

  useEffect(() => {
    const index = pending.current;
    if (index === null) return;
    const el = grid.current?.querySelector<HTMLElement>(tileSelector(index));
    if (el) {
      pending.current = null;
      el.focus();
    }
  });

  // The tile in the Tab order: the active one when it is drawn, else the first one drawn.
  const tabbable = rendered.includes(active) ? active : (rendered[0] ?? -1);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const cell = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!cell || !(e.target as HTMLElement).classList.contains('tile') || e.altKey || e.metaKey) return;
    const index = Number(cell.dataset.index);
    if (e.key === 'Enter') {
      e.preventDefault();
      onOpen(index);
      return;
    }
    if (e.key === ' ') {
      // Not a click: a click while selecting would also toggle, but outside a selection it opens.
      e.preventDefault();
      onToggleSelect(index, e.shiftKey);
      return;
    }
    const screenRows = Math.max(1, Math.floor(window.innerHeight / typicalRowHeight(layout)) - 1);
    const target = targetOf(e.key, index, count, layout, screenRows);
    if (target === null || (e.ctrlKey && e.key !== 'Home' && e.key !== 'End')) return;
    e.preventDefault();
    if (target !== index) focusTile(target);
  };

  /** Space's click comes on key up: swallow it, the key down already selected. */
  const onKeyUp = (e: React.KeyboardEvent) => {
    if (e.key === ' ' && (e.target as HTMLElement).classList.contains('tile')) e.preventDefault();
  };

  /** A tile focused by mouse or Tab becomes the active one. */
  const onFocus = (e: React.FocusEvent) => {
    const cell = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (cell) setActive(Number(cell.dataset.index));
  };

  /** Focuses the grid's tab stop (the skip link "Skip to photos"). */
  const focusGrid = useCallback(() => {
    focusTile(tabbable >= 0 ? tabbable : 0);
  }, [focusTile, tabbable]);

  return { tabbable, handlers: { onKeyDown, onKeyUp, onFocus }, focusGrid };
}

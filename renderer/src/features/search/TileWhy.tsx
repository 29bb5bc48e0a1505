/**
 * A search result's "why" on its tile. With a mouse it shows while the pointer rests on the tile
 * (or the tile has the keyboard focus); on touch, where nothing hovers, a small "i" button on the
 * tile shows it, and a second tap (or a tap elsewhere) hides it. The phrases are also in the tile's
 * accessible description (`aria-describedby` is not reachable across the tile's button, so the
 * same text is in the button's label; see PhotoTile).
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { SearchMatch } from './search-api';
import { whyLine } from '../../photos/match';

export function TileWhy({ match, name }: { match: SearchMatch; name: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  const line = whyLine(match);
  return (
    <div ref={ref} className={open ? 'tile-why tile-why--open' : 'tile-why'}>
      <button
        type="button"
        className="tile-why__button"
        aria-label={`Why ${name} matches`}
        aria-expanded={open}
        aria-controls={id}
        tabIndex={-1}
        onClick={(e) => {
          e.stopPropagation();
          setOpen((v) => !v);
        }}
      >
        i
      </button>
      <p id={id} className="tile-why__text" role="note">
        {line}
      </p>
    </div>
  );
}

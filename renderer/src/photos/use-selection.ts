/**
 * Which items of a grid are selected, by asset id (what the bulk operations take), in the order they
 * were picked (stacking makes the first picked the cover). Three ways in:
 * - toggle one (a tap while selecting, a click on its check, a long press on touch);
 * - a range from the last one toggled (shift-click);
 * - a rubber band dragged over the grid (desktop): while it is dragged, the selection is what was
 *   selected when it started plus what it covers now, so shrinking it gives tiles back.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { GalleryItem } from './library-api';

const assetIdOf = (item: GalleryItem) => item.media_item.primary_asset.asset_id;

export function useSelection(items: readonly GalleryItem[]) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const bandBase = useRef<ReadonlySet<string> | null>(null);

  const toggle = useCallback(
    (index: number, range: boolean) => {
      setSelected((prev) => {
        const next = new Set(prev);
        if (range && anchor !== null) {
          const [a, b] = anchor < index ? [anchor, index] : [index, anchor];
          for (let i = a; i <= b; i++) {
            const item = items[i];
            if (item) next.add(assetIdOf(item));
          }
        } else {
          const item = items[index];
          if (!item) return prev;
          const id = assetIdOf(item);
          if (next.has(id)) next.delete(id);
          else next.add(id);
        }
        return next;
      });
      setAnchor(index);
    },
    [anchor, items],
  );

  /** The rubber band covers these indices now; null when it is let go. */
  const band = useCallback(
    (indices: readonly number[] | null) => {
      if (indices === null) {
        bandBase.current = null;
        return;
      }
      setSelected((prev) => {
        bandBase.current ??= prev;
        const next = new Set(bandBase.current);
        for (const i of indices) {
          const item = items[i];
          if (item) next.add(assetIdOf(item));
        }
        return next;
      });
      if (indices.length > 0) setAnchor(indices[indices.length - 1]!);
    },
    [items],
  );

  const clear = useCallback(() => {
    setSelected(new Set());
    setAnchor(null);
  }, []);

  const selectedRows = useMemo(() => items.filter((i) => selected.has(assetIdOf(i))), [items, selected]);
  /** Item ids (what the grid marks), of the selected rows that are loaded. */
  const selectedItems = useMemo(() => new Set(selectedRows.map((i) => i.id)), [selectedRows]);

  return { selected, selectedRows, selectedItems, toggle, band, clear };
}

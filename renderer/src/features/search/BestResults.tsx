/**
 * "Best results": the few results the search is surest of, in one row (scrolling sideways when
 * they do not fit), with the same tiles as the grid below. Opening one opens the viewer among the
 * full results.
 */
import { PhotoTile } from '../../photos/PhotoTile';
import type { SearchItem } from './search-api';

export function BestResults({ items, onOpen }: { items: readonly SearchItem[]; onOpen: (assetId: string) => void }) {
  if (items.length === 0) return null;
  return (
    <section className="best-results" aria-labelledby="best-results-title">
      <h2 id="best-results-title" className="best-results__title">
        Best results
      </h2>
      <div className="best-results__row" role="list" aria-label="Best results">
        {items.map((item) => (
          <PhotoTile key={item.id} item={item} onOpen={() => onOpen(item.media_item.primary_asset.asset_id)} />
        ))}
      </div>
    </section>
  );
}

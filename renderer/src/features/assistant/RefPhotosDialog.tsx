/**
 * A card's photos (getAgentRefAssets, the first 200 in the ref's order), in a grid of their own over the page;
 * a photo opens in the viewer, stepping through the card's photos. A modal dialog: the viewer opens over it and
 * closing the viewer comes back here.
 */
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { messageOf } from '../../api/problem';
import { Icon } from '../../components/Icon';
import { LazyViewer as Viewer } from '../../photos/lazy-parts';
import { assetToItem } from '../../photos/library-api';
import { Thumbnail } from '../../photos/Thumbnail';
import { useRefAssets } from './agent-api';
import type { Card } from './transcript';
import '../../photos/library.css';

export function RefPhotosDialog({ card, onClose }: { card: Card; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const assets = useRefAssets(card.threadId, card.refId);
  const items = useMemo(() => (assets.data?.assets ?? []).map(assetToItem), [assets.data]);
  const [shown, setShown] = useState<number | null>(null);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  const total = assets.data?.total ?? card.count;
  return (
    <dialog ref={dialog} className="assistant-photos" aria-label={card.title} onClose={onClose} onCancel={(e) => shown !== null && e.preventDefault()}>
      <header className="assistant-photos__head">
        <div>
          <h2 className="assistant-photos__title">{card.title}</h2>
          <p className="assistant-photos__meta">
            {total} {total === 1 ? 'item' : 'items'}
            {items.length < total ? ` (the first ${items.length} shown)` : ''}
          </p>
        </div>
        <button type="button" className="button button--quiet" aria-label="Close photos" onClick={() => dialog.current?.close()}>
          <Icon name="close" />
        </button>
      </header>
      {assets.isPending && <p role="status">Loading the photos…</p>}
      {assets.isError && (
        <p role="alert" className="assistant-photos__error">
          {(assets.error as { status?: number }).status === 404 ? 'These results have expired: ask again to see them.' : messageOf(assets.error)}
        </p>
      )}
      {items.length > 0 && (
        <ul className="assistant-photos__grid" aria-label={`Photos of ${card.title}`}>
          {items.map((item, i) => {
            const a = item.media_item.primary_asset;
            return (
              <li key={item.id}>
                <button type="button" className="tile assistant-photos__tile" aria-label={a.original_filename} onClick={() => setShown(i)}>
                  <Thumbnail assetId={a.asset_id} size="small" alt="" fallback={<Icon name="image" />} />
                  {a.type === 'VIDEO' && <span className="assistant-photos__badge">Video</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {shown !== null && items[shown] && (
        <Suspense fallback={null}>
          <Viewer
            item={items[shown]}
            onClose={() => setShown(null)}
            onPrevious={shown > 0 ? () => setShown(shown - 1) : undefined}
            onNext={shown < items.length - 1 ? () => setShown(shown + 1) : undefined}
          />
        </Suspense>
      )}
    </dialog>
  );
}

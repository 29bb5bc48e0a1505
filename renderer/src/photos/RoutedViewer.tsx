/**
 * The viewer for the photo in the address (viewer-route.ts), among the items of the list it was
 * opened from. Next and previous walk that list and replace the address.
 *
 * A photo that is not among the loaded items (a link, or a reload deep in a long list, or the map,
 * whose list is not kept) is shown on its own, fetched by id; its neighbours appear once the grid has
 * loaded that far. Decision: the list is not paged through to find it, since a link may name a
 * photo that is not in this list at all and that would load the whole library to find out.
 */
import { Suspense, useMemo } from 'react';
import { messageOf } from '../api/problem';
import { assetToItem, type Asset } from './library-api';
import { useAssetDetail } from './asset-detail';
import type { GalleryItem } from './library-api';
import { LazyViewer as Viewer } from './lazy-parts';
import { useViewerRoute } from './viewer-route';


interface RoutedViewerProps {
  items: readonly GalleryItem[];
  trash?: boolean;
  /** Asked when the viewer nears the end of the loaded items. */
  onNearEnd?: (() => void) | undefined;
}

const assetIdOf = (item: GalleryItem) => item.media_item.primary_asset.asset_id;

export function RoutedViewer(props: RoutedViewerProps) {
  return (
    <Suspense fallback={null}>
      <RoutedViewerIn {...props} />
    </Suspense>
  );
}

function RoutedViewerIn({ items, trash = false, onNearEnd }: RoutedViewerProps) {
  const { photoId, step, close } = useViewerRoute();
  const index = useMemo(() => (photoId ? items.findIndex((i) => assetIdOf(i) === photoId) : -1), [items, photoId]);
  const alone = useAssetDetail(photoId ?? '', photoId !== undefined && index < 0);
  if (!photoId) return null;

  if (index >= 0) {
    const previous = index > 0 ? items[index - 1] : undefined;
    const next = index < items.length - 1 ? items[index + 1] : undefined;
    return (
      <Viewer
        item={items[index]!}
        trash={trash}
        onClose={close}
        onPrevious={previous ? () => step(assetIdOf(previous)) : undefined}
        onNext={
          next
            ? () => {
                if (index >= items.length - 5) onNearEnd?.();
                step(assetIdOf(next));
              }
            : undefined
        }
      />
    );
  }
  if (alone.data) return <Viewer item={assetToItem(alone.data as unknown as Asset)} trash={trash || alone.data.deleted_at !== null} onClose={close} />;
  if (alone.isError) {
    // A malformed id is as absent as an unknown one (or another member's: the server answers 404).
    const status = (alone.error as { status?: number }).status ?? 0;
    const missing = status === 400 || status === 404 || status === 422;
    return (
      <div className="overlay overlay--message" role="alertdialog" aria-label="Photo not found">
        <p role="alert">{missing ? 'This photo is not in your library.' : messageOf(alone.error)}</p>
        <button type="button" className="button button--secondary" onClick={close}>
          Back to the list
        </button>
      </div>
    );
  }
  return null;
}

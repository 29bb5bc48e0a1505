/** An asset's photo in the viewer, zooming and panning (ZoomableImage) on its large thumbnail. */
import { Thumbnail } from './Thumbnail';
import { ZoomableImage } from './ZoomableImage';

export function ZoomablePhoto({ assetId, alt, onZoomedChange }: { assetId: string; alt: string; onZoomedChange?: (zoomed: boolean) => void }) {
  return (
    <ZoomableImage onZoomedChange={onZoomedChange}>
      <Thumbnail assetId={assetId} size="large" alt={alt} className="overlay__media" fallback={<p className="overlay__problem">No preview available.</p>} />
    </ZoomableImage>
  );
}

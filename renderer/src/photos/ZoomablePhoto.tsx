/**
 * An asset's photo in the viewer, zooming and panning (ZoomableImage) on its large thumbnail. A line
 * of text chosen in the details is boxed over it (search/OcrOverlay.tsx, through viewer-slots.tsx), zooming with it.
 */
import type { ReactNode } from 'react';
import type { Quad } from './picture-geometry';
import { Thumbnail } from './Thumbnail';
import { ZoomableImage } from './ZoomableImage';
import { viewerSlots } from './viewer-slots';

/** `children`: more drawn over the photo, zooming with it (the faces, people/FaceBoxes.tsx). */
export function ZoomablePhoto({ assetId, alt, onZoomedChange, highlight = null, children }: { assetId: string; alt: string; onZoomedChange?: (zoomed: boolean) => void; highlight?: Quad | null; children?: ReactNode }) {
  const { Highlight } = viewerSlots().overlays;
  return (
    <ZoomableImage onZoomedChange={onZoomedChange}>
      <Thumbnail assetId={assetId} size="large" alt={alt} className="overlay__media" fallback={<p className="overlay__problem">No preview available.</p>} />
      {Highlight && <Highlight quad={highlight} />}
      {children}
    </ZoomableImage>
  );
}

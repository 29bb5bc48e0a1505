/**
 * The box of one line of text drawn over the photo in the viewer, while that line is hovered or
 * tapped in the details (OcrText.tsx). An SVG with a 0..1 view box laid exactly over the picture
 * (ocr-geometry.ts), a sibling of the photo inside the zoom's content: it zooms and pans with it.
 * Re-measured when the image loads and whenever its element changes size (window, details panel).
 */
import { useRef } from 'react';
import { usePictureRect } from '../../photos/use-picture-rect';
import { polygonPoints, type Quad } from '../../photos/picture-geometry';

export function OcrOverlay({ quad }: { quad: Quad | null }) {
  const ref = useRef<SVGSVGElement>(null);
  const rect = usePictureRect(ref, quad !== null);

  if (!quad) return <svg ref={ref} className="ocr-overlay" aria-hidden="true" width={0} height={0} data-testid="ocr-box" />;
  return (
    <svg
      ref={ref}
      className="ocr-overlay"
      aria-hidden="true"
      viewBox="0 0 1 1"
      preserveAspectRatio="none"
      style={rect ? { left: rect.left, top: rect.top, width: rect.width, height: rect.height } : { width: 0, height: 0 }}
      data-testid="ocr-box"
    >
      <polygon className="ocr-overlay__box" points={polygonPoints(quad)} />
    </svg>
  );
}

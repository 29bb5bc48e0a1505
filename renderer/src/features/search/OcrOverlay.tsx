/**
 * The box of one line of text drawn over the photo in the viewer, while that line is hovered or
 * tapped in the details (OcrText.tsx). An SVG with a 0..1 view box laid exactly over the picture
 * (ocr-geometry.ts), a sibling of the photo inside the zoom's content: it zooms and pans with it.
 * Re-measured when the image loads and whenever its element changes size (window, details panel).
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { containedRect, polygonPoints, type Quad, type Rect } from './ocr-geometry';

export function OcrOverlay({ quad }: { quad: Quad | null }) {
  const ref = useRef<SVGSVGElement>(null);
  const [rect, setRect] = useState<Rect | null>(null);

  useLayoutEffect(() => {
    const img = ref.current?.parentElement?.querySelector('img');
    if (!img) return;
    const measure = () => {
      const r = containedRect(
        { left: img.offsetLeft, top: img.offsetTop, width: img.offsetWidth, height: img.offsetHeight },
        { width: img.naturalWidth, height: img.naturalHeight },
      );
      setRect((prev) => (prev && prev.left === r.left && prev.top === r.top && prev.width === r.width && prev.height === r.height ? prev : r));
    };
    measure();
    img.addEventListener('load', measure);
    const ro = new ResizeObserver(measure);
    ro.observe(img);
    return () => {
      img.removeEventListener('load', measure);
      ro.disconnect();
    };
  }, [quad !== null]);

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

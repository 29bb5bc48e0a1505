/**
 * A photo that zooms and pans: double-click (or + / −, or the wheel) zooms around the pointer, a drag
 * pans while zoomed. Zoomed in, the large derivative (1920 px) is shown; it is what every format has
 * (RAW and HEIC originals cannot be shown by a browser).
 */
import { useEffect, useRef, useState } from 'react';
import { Thumbnail } from './Thumbnail';

const MAX = 4;

export function ZoomablePhoto({ assetId, alt }: { assetId: string; alt: string }) {
  const [zoom, setZoom] = useState(1);
  const [pan, setPan] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; px: number; py: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);

  const zoomTo = (next: number) => {
    const z = Math.min(MAX, Math.max(1, next));
    setZoom(z);
    if (z === 1) setPan({ x: 0, y: 0 });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '+' || e.key === '=') zoomTo(zoom * 1.5);
      else if (e.key === '-') zoomTo(zoom / 1.5);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // Non-passive, so the page does not scroll behind the dialog while zooming.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      setZoom((z) => {
        const next = Math.min(MAX, Math.max(1, z * (e.deltaY < 0 ? 1.15 : 1 / 1.15)));
        if (next === 1) setPan({ x: 0, y: 0 });
        return next;
      });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  return (
    <div
      ref={box}
      className={zoom > 1 ? 'zoom zoom--in' : 'zoom'}
      data-zoom={zoom.toFixed(2)}
      onDoubleClick={() => zoomTo(zoom > 1 ? 1 : 2.5)}
      onPointerDown={(e) => {
        if (zoom === 1) return;
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
        drag.current = { x: e.clientX, y: e.clientY, px: pan.x, py: pan.y };
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (d) setPan({ x: d.px + (e.clientX - d.x) / zoom, y: d.py + (e.clientY - d.y) / zoom });
      }}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
    >
      <div className="zoom__content" style={{ transform: `scale(${zoom}) translate(${pan.x}px, ${pan.y}px)` }}>
        <Thumbnail assetId={assetId} size="large" alt={alt} className="overlay__media" fallback={<p className="overlay__problem">No preview available.</p>} />
      </div>
    </div>
  );
}

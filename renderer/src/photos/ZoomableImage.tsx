/**
 * An image that zooms and pans (its content is given: ZoomablePhoto shows an asset's large
 * thumbnail; the public link page, features/sharing/public, a link's photo without any account code). Mouse: double-click, + / − or the wheel zoom around the pointer, a drag
 * pans while zoomed. Touch: two fingers pinch around their midpoint, a double tap zooms in (or back
 * out), one finger pans while zoomed. Panning stops at the photo's edges. Zoomed in, the large
 * derivative (1920 px) is shown; it is what every format has (RAW and HEIC originals cannot be shown
 * by a browser).
 *
 * Pointer events rather than touch events: one code path for mouse, pen and fingers. The parent
 * (the viewer's swipe, use-viewer-swipe.ts) is told whether the photo is zoomed, so a finger that
 * pans a zoomed photo does not also step to the next one.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

const MAX = 4;
const DOUBLE_TAP_ZOOM = 2.5;
/** Two taps this close in time (ms) and space (px) are a double tap. */
const DOUBLE_TAP_MS = 320;
const DOUBLE_TAP_PX = 30;
/** A touch that moved less than this (px) is a tap. */
const TAP_SLOP = 10;

interface View {
  zoom: number;
  x: number;
  y: number;
}

interface Point {
  x: number;
  y: number;
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const midpoint = (a: Point, b: Point) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

export function ZoomableImage({ children, onZoomedChange }: { children: ReactNode; onZoomedChange?: ((zoomed: boolean) => void) | undefined }) {
  const [view, setViewState] = useState<View>({ zoom: 1, x: 0, y: 0 });
  const current = useRef(view);
  const box = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, Point>());
  const pinch = useRef<{ distance: number; zoom: number } | null>(null);
  const drag = useRef<{ x: number; y: number; px: number; py: number } | null>(null);
  const touch = useRef<{ id: number; x: number; y: number; moved: boolean } | null>(null);
  const lastTap = useRef<{ t: number; x: number; y: number } | null>(null);
  const lastPointerType = useRef('mouse');

  const setView = (next: View) => {
    current.current = next;
    setViewState(next);
  };

  /** Pan limits, in the content's own (unscaled) pixels: an edge of the photo never leaves its side. */
  const clamp = (v: View): View => {
    const r = box.current?.getBoundingClientRect();
    if (!r || v.zoom <= 1) return { zoom: Math.max(1, v.zoom), x: 0, y: 0 };
    const mx = (r.width / 2) * (1 - 1 / v.zoom);
    const my = (r.height / 2) * (1 - 1 / v.zoom);
    return { zoom: v.zoom, x: Math.min(mx, Math.max(-mx, v.x)), y: Math.min(my, Math.max(-my, v.y)) };
  };

  /** Zoom to `zoom` keeping the content under the screen point `at` (default: the centre) in place. */
  const zoomAround = (zoom: number, at?: Point) => {
    const z = Math.min(MAX, Math.max(1, zoom));
    const v = current.current;
    const r = box.current?.getBoundingClientRect();
    if (!r || !at) return setView(clamp({ zoom: z, x: v.x, y: v.y }));
    const px = at.x - (r.left + r.width / 2);
    const py = at.y - (r.top + r.height / 2);
    // A point on screen is centre + zoom·(q + pan); keep q (the content point) under `at`.
    const qx = px / v.zoom - v.x;
    const qy = py / v.zoom - v.y;
    setView(clamp({ zoom: z, x: px / z - qx, y: py / z - qy }));
  };

  const zoomed = view.zoom > 1;
  useEffect(() => onZoomedChange?.(zoomed), [zoomed, onZoomedChange]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '+' || e.key === '=') zoomAround(current.current.zoom * 1.5);
      else if (e.key === '-') zoomAround(current.current.zoom / 1.5);
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
      zoomAround(current.current.zoom * (e.deltaY < 0 ? 1.15 : 1 / 1.15), { x: e.clientX, y: e.clientY });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
    // Bound once: zoomAround reads refs only.
  }, []);

  const startDrag = (p: Point) => {
    const v = current.current;
    drag.current = v.zoom > 1 ? { x: p.x, y: p.y, px: v.x, py: v.y } : null;
  };

  return (
    <div
      ref={box}
      className={zoomed ? 'zoom zoom--in' : 'zoom'}
      data-zoom={view.zoom.toFixed(2)}
      onDoubleClick={(e) => {
        // Touch has its own double tap (below); a browser may also send dblclick for it.
        if (lastPointerType.current === 'touch') return;
        zoomAround(current.current.zoom > 1 ? 1 : DOUBLE_TAP_ZOOM, { x: e.clientX, y: e.clientY });
      }}
      onPointerDown={(e) => {
        lastPointerType.current = e.pointerType;
        const p = { x: e.clientX, y: e.clientY };
        pointers.current.set(e.pointerId, p);
        e.currentTarget.setPointerCapture(e.pointerId);
        if (pointers.current.size === 2) {
          const [a, b] = [...pointers.current.values()] as [Point, Point];
          pinch.current = { distance: Math.max(1, distance(a, b)), zoom: current.current.zoom };
          drag.current = null;
          touch.current = null;
        } else if (pointers.current.size === 1) {
          startDrag(p);
          touch.current = e.pointerType === 'mouse' ? null : { id: e.pointerId, x: p.x, y: p.y, moved: false };
        }
      }}
      onPointerMove={(e) => {
        if (!pointers.current.has(e.pointerId)) return;
        const p = { x: e.clientX, y: e.clientY };
        pointers.current.set(e.pointerId, p);
        const t = touch.current;
        if (t && t.id === e.pointerId && distance(t, p) > TAP_SLOP) t.moved = true;
        const pin = pinch.current;
        if (pin && pointers.current.size >= 2) {
          const [a, b] = [...pointers.current.values()] as [Point, Point];
          zoomAround(pin.zoom * (distance(a, b) / pin.distance), midpoint(a, b));
          return;
        }
        const d = drag.current;
        if (d) {
          const z = current.current.zoom;
          setView(clamp({ zoom: z, x: d.px + (p.x - d.x) / z, y: d.py + (p.y - d.y) / z }));
        }
      }}
      onPointerUp={(e) => {
        pointers.current.delete(e.pointerId);
        const t = touch.current;
        if (t && t.id === e.pointerId && !t.moved && !pinch.current) {
          const last = lastTap.current;
          const now = e.timeStamp;
          if (last && now - last.t < DOUBLE_TAP_MS && distance(last, t) < DOUBLE_TAP_PX) {
            lastTap.current = null;
            zoomAround(current.current.zoom > 1 ? 1 : DOUBLE_TAP_ZOOM, { x: e.clientX, y: e.clientY });
          } else lastTap.current = { t: now, x: t.x, y: t.y };
        }
        touch.current = null;
        if (pointers.current.size < 2) pinch.current = null;
        // One finger left after a pinch goes on panning from where it is.
        const rest = [...pointers.current.values()][0];
        if (rest) startDrag(rest);
        else drag.current = null;
      }}
      onPointerCancel={(e) => {
        pointers.current.delete(e.pointerId);
        pinch.current = null;
        drag.current = null;
        touch.current = null;
      }}
    >
      <div className="zoom__content" style={{ transform: `scale(${view.zoom}) translate(${view.x}px, ${view.y}px)` }}>
        {children}
      </div>
    </div>
  );
}

/**
 * Where the picture itself sits inside the viewer's <img> (object-fit: contain leaves bands), for layers
 * drawn exactly over it (the OCR line box, the face boxes). `ref` is the layer, a sibling of the <img>
 * inside the zoom's content, so the layer zooms and pans with the photo. Re-measured when the image loads
 * and whenever its element changes size (window, details panel); measured again when `active` turns on.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';
import { containedRect, type Rect } from './picture-geometry';

export function usePictureRect(ref: RefObject<Element | null>, active: boolean): Rect | null {
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
    // The layer's element is the same for its life; `active` turning on is when there is something to lay over.
  }, [active]);
  return rect;
}

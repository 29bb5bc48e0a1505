/**
 * True once the element has come near the screen (and stays true): a card asks for its people and
 * place only then, so a list of fifty events costs requests for the dozen a person looks at.
 */
import { useEffect, useRef, useState } from 'react';

export function useSeen<T extends Element>(margin = '200px') {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || seen) return;
    const io = new IntersectionObserver(([e]) => e?.isIntersecting && setSeen(true), { rootMargin: margin });
    io.observe(el);
    return () => io.disconnect();
  }, [seen, margin]);
  return { ref, seen };
}

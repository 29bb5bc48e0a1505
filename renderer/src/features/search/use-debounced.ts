import { useEffect, useState } from 'react';

/** `value` once it has stayed the same for `ms`: the suggestions ask the server after a pause in typing, not per key. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return settled;
}

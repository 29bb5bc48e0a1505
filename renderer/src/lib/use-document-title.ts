import { useEffect } from 'react';

/** Names the browser tab (and the history entry) after the page, so several Hearth tabs can be told apart. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Hearth` : 'Hearth';
  }, [title]);
}

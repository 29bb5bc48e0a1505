/** Starting a search by image from anywhere (the top bar's field, the search page): hold the file, open its results. */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { holdQueryImage } from './image-queries';
import { searchHref } from './search-url';

export function useImageSearch() {
  const navigate = useNavigate();
  return useCallback((file: File) => void navigate(searchHref({ kind: 'image', key: holdQueryImage(file) })), [navigate]);
}

/** The first file of a drop or a picker, if any. */
export function firstFile(list: FileList | null | undefined): File | undefined {
  return list && list.length > 0 ? (list[0] ?? undefined) : undefined;
}

/** A drag that carries files (not text or a link dragged from the page). */
export function dragHasFiles(e: React.DragEvent): boolean {
  return Array.from(e.dataTransfer.types).includes('Files');
}

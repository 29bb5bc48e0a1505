/**
 * A drop target for files from the computer: whether something is being dragged over it (to highlight it), and the
 * handlers that make the browser drop there instead of opening the file. Leaving for a child of the target is not
 * leaving the target, so the highlight does not flicker over the target's own text and icon.
 */
import { useState, type DragEvent } from 'react';

export function useFileDrop(onDrop: (data: DataTransfer) => void) {
  const [dragging, setDragging] = useState(false);
  const targetProps = {
    onDragEnter: (e: DragEvent) => {
      e.preventDefault();
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (e: DragEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDragging(false);
      onDrop(e.dataTransfer);
    },
  };
  return { dragging, targetProps };
}

/**
 * The hidden file input behind "Search by image" (the top bar's image button and the search page's "Pick an
 * image"): photos only (HEIC named, since some browsers do not count it as image/*); on a phone it opens the
 * system's photo picker. The chosen file goes to `onImage`; the input is cleared so the same file can be
 * picked again.
 */
import type { RefObject } from 'react';
import { firstFile } from './use-image-search';

export function ImageFileInput({ inputRef, onImage }: { inputRef: RefObject<HTMLInputElement | null>; onImage: (file: File) => void }) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept="image/*,.heic,.heif"
      className="visually-hidden"
      tabIndex={-1}
      aria-label="Image to search by"
      onChange={(e) => {
        const file = firstFile(e.currentTarget.files);
        e.currentTarget.value = '';
        if (file) onImage(file);
      }}
    />
  );
}

/**
 * What the search is: the filters the server understood in the text, each removable (removing one
 * searches again with its id in `ignore_parsed`, so its words count as plain text), or the query
 * image / the photo whose look is searched for, shown as the query's chip.
 */
import { useEffect, useState } from 'react';
import { Thumbnail } from '../../photos/Thumbnail';
import type { ParsedChip } from './search-api';

export function ParsedChips({ chips, onRemove }: { chips: readonly ParsedChip[]; onRemove: (chip: ParsedChip) => void }) {
  if (chips.length === 0) return null;
  return (
    <ul className="chips search-chips" aria-label="Filters understood in the search">
      {chips.map((c) => (
        <li key={c.id} className="chip search-chip" data-kind={c.kind}>
          <span>{c.label}</span>
          <button type="button" className="search-chip__remove" aria-label={`Remove filter ${c.label}`} title={`Search “${c.text}” as words instead`} onClick={() => onRemove(c)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The query image, shown from memory (an object URL released when it goes). */
export function ImageChip({ file, onRemove }: { file: File; onRemove: () => void }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  return (
    <div className="chip search-chip search-chip--query">
      {url && <img className="search-chip__image" src={url} alt={`Query image ${file.name}`} />}
      <span>Photos like your image</span>
      <button type="button" className="search-chip__remove" aria-label="Clear the image search" onClick={onRemove}>
        ×
      </button>
    </div>
  );
}

export function SimilarChip({ assetId, onRemove }: { assetId: string; onRemove: () => void }) {
  return (
    <div className="chip search-chip search-chip--query">
      <Thumbnail assetId={assetId} size="small" alt="The photo searched for" className="search-chip__image" fallback={null} />
      <span>Photos like this one</span>
      <button type="button" className="search-chip__remove" aria-label="Clear the similar search" onClick={onRemove}>
        ×
      </button>
    </div>
  );
}

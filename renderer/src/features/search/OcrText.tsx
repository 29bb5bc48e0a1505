/**
 * The text OCR read in a photo, in the viewer's details: its lines in reading order, a Copy button
 * for all of it, and the line's box drawn over the photo (OcrOverlay.tsx) while a line is hovered
 * or has the focus; a tap (or Enter) keeps it drawn until tapped again, for touch screens.
 *
 * Nothing is shown for a photo OCR has not read (no model, still queued, a video); a photo read
 * without any text says so, so that "no text" is not mistaken for "not read yet".
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { copyText } from '../../lib/clipboard';
import { assetKeys } from '../../photos/asset-actions-api';
import type { Quad } from '../../photos/picture-geometry';

export function useAssetOcr(assetId: string) {
  return useQuery({
    queryKey: [...assetKeys.detail(assetId), 'ocr'],
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/{id}', { params: { path: { id: assetId }, query: { include_ocr: 'true' } }, signal })),
    select: (a) => a.ocr_result ?? null,
    staleTime: 60_000,
  });
}

export function OcrText({ assetId, onHighlight }: { assetId: string; onHighlight: (quad: Quad | null) => void }) {
  const ocr = useAssetOcr(assetId);
  const [hovered, setHovered] = useState<number | null>(null);
  const [pinned, setPinned] = useState<number | null>(null);
  const [copied, setCopied] = useState(false);
  const lines = ocr.data?.text_items ?? [];
  const shown = hovered ?? pinned;
  const quad = lines.find((l) => l.id === shown)?.bounding_box.points ?? null;

  useEffect(() => onHighlight(quad as Quad | null), [quad, onHighlight]);
  useEffect(() => () => onHighlight(null), [onHighlight]);
  useEffect(() => {
    setPinned(null);
    setHovered(null);
    setCopied(false);
  }, [assetId]);

  if (!ocr.data) return null;
  const all = lines.map((l) => l.text_content).join('\n');
  return (
    <section className="ocr-text" aria-labelledby="ocr-text-title">
      <div className="ocr-text__head">
        <h3 id="ocr-text-title">Text in the photo</h3>
        {lines.length > 0 && (
          <button
            type="button"
            className="button button--quiet"
            aria-label="Copy the text"
            onClick={() => void copyText(all).then((ok) => setCopied(ok))}
          >
            Copy
          </button>
        )}
      </div>
      {copied && (
        <p className="ocr-text__copied" role="status">
          Copied.
        </p>
      )}
      {lines.length === 0 ? (
        <p>No text was found in this photo.</p>
      ) : (
        <ul className="ocr-lines" aria-label="Lines of text">
          {lines.map((l) => (
            <li key={l.id}>
              <button
                type="button"
                className="ocr-line"
                aria-pressed={pinned === l.id}
                title={`Read with ${Math.round(l.confidence * 100)}% confidence`}
                onMouseEnter={() => setHovered(l.id)}
                onMouseLeave={() => setHovered(null)}
                onFocus={() => setHovered(l.id)}
                onBlur={() => setHovered(null)}
                onClick={() => {
                  // Tapped again: the box goes (the focus the tap left must not keep it drawn).
                  if (pinned === l.id) setHovered(null);
                  setPinned((p) => (p === l.id ? null : l.id));
                }}
              >
                {l.text_content}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

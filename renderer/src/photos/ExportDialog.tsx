/**
 * Export a photo as JPEG, PNG, WebP or AVIF, optionally smaller, under a name of one's choosing.
 * The server re-encodes the original (exportAsset) and the browser downloads it through a media
 * token URL, so a large export streams to disk instead of through page memory.
 */
import { useState } from 'react';
import { mediaUrl, useMediaToken } from './media-token';

const FORMATS = [
  { value: 'jpeg', label: 'JPEG', lossy: true },
  { value: 'webp', label: 'WebP', lossy: true },
  { value: 'avif', label: 'AVIF', lossy: true },
  { value: 'png', label: 'PNG (lossless)', lossy: false },
] as const;

const stem = (name: string) => name.replace(/\.[^.]+$/, '');

export function ExportPanel({ assetId, filename, onClose }: { assetId: string; filename: string; onClose: () => void }) {
  const token = useMediaToken();
  const [format, setFormat] = useState<(typeof FORMATS)[number]['value']>('jpeg');
  const [quality, setQuality] = useState(90);
  const [maxSide, setMaxSide] = useState('');
  const [name, setName] = useState(stem(filename));
  const lossy = FORMATS.find((f) => f.value === format)!.lossy;
  const bound = Number(maxSide);

  let href: string | null = null;
  if (token) {
    const q = new URLSearchParams({ format });
    if (lossy) q.set('quality', String(quality));
    if (bound > 0) {
      q.set('max_width', String(bound));
      q.set('max_height', String(bound));
    }
    if (name.trim()) q.set('filename', name.trim());
    // The original URL carries the token; the export lives beside it.
    href = mediaUrl(assetId, 'original', token).replace('/original?', `/export?${q.toString()}&`);
  }

  return (
    <section className="export" aria-label="Export">
      <h3>Export</h3>
      <label>
        Format
        <select value={format} onChange={(e) => setFormat(e.target.value as typeof format)}>
          {FORMATS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      {lossy && (
        <label>
          Quality {quality}
          <input type="range" min={1} max={100} value={quality} onChange={(e) => setQuality(Number(e.target.value))} />
        </label>
      )}
      <label>
        Longest side (pixels, empty for full size)
        <input inputMode="numeric" pattern="[0-9]*" value={maxSide} onChange={(e) => setMaxSide(e.target.value.replace(/\D/g, '').slice(0, 5))} />
      </label>
      <label>
        File name
        <input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      </label>
      <div className="export__actions">
        {href && (
          <a className="button button--primary" href={href} download onClick={() => setTimeout(onClose, 0)}>
            Download {format.toUpperCase()}
          </a>
        )}
        <button type="button" className="button button--quiet" onClick={onClose}>
          Cancel
        </button>
      </div>
    </section>
  );
}

/**
 * What the chosen parts would bring, read by the server from the archives before anything is imported: photos,
 * videos, albums, the dates they span, files without a sidecar (imported with their own dates and places) and what
 * could not be read. "Include untitled albums" (Google's "Untitled" albums, left out unless asked), then Import.
 */
import { useId, useState } from 'react';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { formatDateRange } from '../../lib/dates';
import type { ImportRun } from './import-api';
import { importProblemWords } from './problem-words';
import { useStartTakeout, type TakeoutPreview } from './takeout-api';

interface PreviewProps {
  preview: TakeoutPreview;
  repositoryId: string;
  parts: string[];
  onStarted: (run: ImportRun) => void;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function TakeoutPreviewPanel({ preview, repositoryId, parts, onStarted }: PreviewProps) {
  const start = useStartTakeout();
  const [untitled, setUntitled] = useState(false);
  const headingId = useId();
  const media = preview.photos + preview.videos;
  const range = preview.date_range ? formatDateRange(Date.parse(preview.date_range.from), Date.parse(preview.date_range.to), { utc: true }) : 'no dates';

  return (
    <section className="takeout-preview" aria-labelledby={headingId}>
      <h3 className="takeout-preview__title" id={headingId}>
        {parts.length === 1 ? 'What this part holds' : `What these ${parts.length} parts hold`}
      </h3>
      <dl className="run__counters">
        <Fact label="Photos" value={preview.photos} />
        <Fact label="Videos" value={preview.videos} />
        <Fact label="Albums" value={preview.albums.length} />
        <Fact label="Without a sidecar" value={preview.without_sidecar.count} />
      </dl>
      <p className="takeout-preview__dates">Taken {range}.</p>
      {preview.albums.length > 0 && (
        <ul className="takeout-preview__albums" aria-label="Albums">
          {preview.albums.map((a) => (
            <li key={a.name}>
              {a.name} <span className="takeout-preview__count">({plural(a.count, 'item')})</span>
            </li>
          ))}
        </ul>
      )}
      {preview.without_sidecar.count > 0 && (
        <p className="field__hint">
          {plural(preview.without_sidecar.count, 'file')} without Google’s sidecar ({preview.without_sidecar.examples.slice(0, 3).join(', ')}) come in with the date and place inside the file.
        </p>
      )}
      {preview.problems.length > 0 && (
        <ul className="notice takeout-preview__problems" aria-label="Could not be read">
          {preview.problems.slice(0, 10).map((p) => (
            <li key={`${p.where}-${p.reason}`}>
              {p.where}: {p.reason}
            </li>
          ))}
        </ul>
      )}
      <label className="choice">
        <input type="checkbox" checked={untitled} onChange={(e) => setUntitled(e.target.checked)} />
        <span>Include untitled albums</span>
      </label>
      <FormError message={start.error ? importProblemWords(start.error) : null} />
      <div className="form__actions">
        <Button
          busy={start.isPending}
          busyLabel="Starting…"
          disabled={media === 0}
          onClick={() => start.mutate({ repositoryId, parts, untitledAlbums: untitled }, { onSuccess: ({ run }) => onStarted(run) })}
        >
          Import {plural(media, 'photo and video', 'photos and videos')}
        </Button>
      </div>
    </section>
  );
}

function Fact({ label, value }: { label: string; value: number }) {
  return (
    <div className="run__counter">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

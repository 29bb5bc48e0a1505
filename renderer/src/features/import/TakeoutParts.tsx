/**
 * The Takeout parts already in the repository (uploaded here, or placed there by hand), by export, to choose which
 * to preview and import together. Parts uploaded just now come ticked.
 */
import { useId } from 'react';
import { LoadError } from '../../components/LoadError';
import { formatBytes } from '../../lib/format';
import { useTakeoutArchives } from './takeout-api';

interface TakeoutPartsProps {
  repositoryId: string;
  chosen: ReadonlySet<string>;
  onToggle: (path: string, on: boolean) => void;
}

export function TakeoutParts({ repositoryId, chosen, onToggle }: TakeoutPartsProps) {
  const archives = useTakeoutArchives(repositoryId);
  const headingId = useId();
  if (archives.isError) return <LoadError error={archives.error} onRetry={() => void archives.refetch()} />;
  if (!archives.data) return <p aria-busy="true">Looking for parts…</p>;
  const sets = archives.data.archives;
  if (sets.length === 0) return null;
  return (
    <fieldset className="choice-group takeout-parts" aria-labelledby={headingId}>
      <legend className="field__label" id={headingId}>
        Parts in this repository
      </legend>
      {sets.map((set) => (
        <ul key={`${set.name}-${set.parts[0]?.path}`} className="takeout-parts__set" aria-label={`Export ${set.name}`}>
          {set.parts.map((p) => (
            <li key={p.path}>
              <label className="choice takeout-parts__part">
                <input type="checkbox" checked={chosen.has(p.path)} onChange={(e) => onToggle(p.path, e.target.checked)} />
                <span className="takeout-parts__path">{p.path}</span>
                <span className="takeout-parts__size">{formatBytes(p.size)}</span>
              </label>
            </li>
          ))}
        </ul>
      ))}
    </fieldset>
  );
}

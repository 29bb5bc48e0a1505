/**
 * "Into repository": the choice of where an import or a Takeout upload goes, shown when the member can reach more
 * than one repository (the caller shows the single one in words otherwise).
 */
import { useId } from 'react';

interface RepositoryOption {
  id: string;
  name: string;
  is_primary: boolean;
}

export function RepositorySelect({ list, value, disabled, onChange }: { list: readonly RepositoryOption[]; value: string; disabled?: boolean; onChange: (id: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Into repository
      </label>
      <select id={id} className="field__input" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        {list.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name}
            {r.is_primary ? ' (main)' : ''}
          </option>
        ))}
      </select>
    </div>
  );
}

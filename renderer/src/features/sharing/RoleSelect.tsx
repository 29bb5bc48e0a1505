/** Viewer or contributor, with what each may do. */
import { useId } from 'react';
import type { AlbumRole } from './sharing-api';

export const ROLE_HELP: Record<AlbumRole, string> = {
  viewer: 'Sees the album and its photos; changes nothing.',
  contributor: 'Sees the album and adds their own photos to it.',
};

export function RoleSelect(props: { label: string; value: AlbumRole; onChange: (role: AlbumRole) => void; disabled?: boolean; hint?: string }) {
  const id = useId();
  return (
    <div className="field share-role">
      <label className={props.hint ? 'field__label' : 'field__label share-visually-hidden'} htmlFor={id}>
        {props.label}
      </label>
      <select id={id} className="field__input" value={props.value} disabled={props.disabled} onChange={(e) => props.onChange(e.target.value as AlbumRole)}>
        <option value="viewer">Viewer</option>
        <option value="contributor">Contributor</option>
      </select>
      {props.hint && <p className="field__hint">{props.hint}</p>}
    </div>
  );
}

/**
 * Choose a folder by browsing, not by typing its path: the folders at one level (listFolders), each
 * opened with a tap to see the folders inside it, and "Show this folder" to pick the one open. Up
 * goes back a level. Works the same with a finger and a mouse; every row is a real button.
 *
 * Decision: the top level lists the first folders of every repository together (the household rarely
 * has more than one); a folder is picked with its repository, so two repositories' "2024" never mix.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { messageOf, request } from '../../api/problem';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import './folder-picker.css';

export interface PickedFolder {
  repositoryId: string;
  path: string;
}

interface Level {
  repositoryId: string;
  path: string;
  name: string;
}

export function FolderPicker({ onPick, onCancel }: { onPick: (folder: PickedFolder) => void; onCancel: () => void }) {
  // The levels opened so far, outermost first; empty at the top.
  const [trail, setTrail] = useState<Level[]>([]);
  const here = trail.at(-1);
  const list = useQuery({
    queryKey: ['library', 'folders', here?.repositoryId ?? '', here?.path ?? ''],
    queryFn: ({ signal }) =>
      request(api.GET('/api/v1/assets/folders', { params: { query: { ...(here ? { repository_id: here.repositoryId } : {}), path: here?.path ?? '' } }, signal })),
  });
  const folders = list.data?.folders ?? [];

  return (
    <div className="folder-picker" role="group" aria-label="Choose a folder">
      <div className="folder-picker__head">
        {here ? (
          <Button variant="quiet" className="button--small" onClick={() => setTrail(trail.slice(0, -1))} aria-label={`Up from ${here.name}`}>
            <Icon name="back" size={16} /> Up
          </Button>
        ) : (
          <span className="folder-picker__where">All folders</span>
        )}
        {here && (
          <span className="folder-picker__where" title={here.path}>
            {here.path}
          </span>
        )}
      </div>
      {list.isPending && <p role="status">Loading folders…</p>}
      {list.isError && <p className="field__error">{messageOf(list.error)}</p>}
      {list.isSuccess && folders.length === 0 && <p className="folder-picker__empty">{here ? 'No folders inside this one.' : 'No folders yet.'}</p>}
      {folders.length > 0 && (
        <ul className="folder-picker__list" aria-label={here ? `Folders in ${here.name}` : 'Folders'}>
          {folders.map((f) => {
            const name = f.display_name || f.repository_name;
            return (
              <li key={`${f.repository_id}:${f.folder_path}`}>
                <button
                  type="button"
                  className="folder-picker__row"
                  aria-label={`Open ${name}`}
                  onClick={() => setTrail([...trail, { repositoryId: f.repository_id, path: f.folder_path, name }])}
                >
                  <Icon name="folders" size={18} />
                  <span className="folder-picker__name">{name}</span>
                  <span className="folder-picker__count">{f.asset_count.toLocaleString()}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="button-row folder-picker__actions">
        {here && (
          <Button className="button--small" onClick={() => onPick({ repositoryId: here.repositoryId, path: here.path })}>
            Show {here.name}
          </Button>
        )}
        <Button variant="quiet" className="button--small" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

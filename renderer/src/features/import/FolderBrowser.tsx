/**
 * Choosing a folder at the provider: where one is (a breadcrumb back up), the folders inside it as large rows to tap
 * into, and nothing else: the choice is "this folder", made by the button under it (ImportSetup). Folder paths are
 * the provider's, `/`-separated from the top of the account ('' is the top).
 */
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { useFolders } from './import-api';
import { importProblemWords } from './problem-words';

interface FolderBrowserProps {
  credentialId: string;
  /** The account's provider id, for its words about a failure. */
  provider: string;
  /** The top's name in the breadcrumb (the account's). */
  topName: string;
  folder: string;
  onOpen: (folder: string) => void;
}

export function FolderBrowser({ credentialId, provider, topName, folder, onOpen }: FolderBrowserProps) {
  const folders = useFolders(credentialId, folder);
  const segments = folder ? folder.split('/') : [];
  const crumbs = [{ name: topName, path: '' }, ...segments.map((name, i) => ({ name, path: segments.slice(0, i + 1).join('/') }))];

  return (
    <div className="folder-browser">
      <nav aria-label="Folder path">
        <ol className="folder-browser__crumbs">
          {crumbs.map((c, i) => (
            <li key={c.path}>
              {i === crumbs.length - 1 ? (
                <span aria-current="location" className="folder-browser__here">
                  {c.name}
                </span>
              ) : (
                <button type="button" className="folder-browser__crumb" onClick={() => onOpen(c.path)}>
                  {c.name}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {folders.isError ? (
        <div className="notice notice--error" role="alert">
          {importProblemWords(folders.error, provider)}{' '}
          <Button variant="secondary" onClick={() => void folders.refetch()}>
            Try again
          </Button>
        </div>
      ) : folders.isPending ? (
        <p aria-busy="true">Looking inside {crumbs.at(-1)?.name}…</p>
      ) : folders.data.folders.length === 0 ? (
        <p className="folder-browser__empty">No folders inside this one.</p>
      ) : (
        <ul className="folder-browser__list" aria-label={`Folders in ${crumbs.at(-1)?.name ?? topName}`}>
          {folders.data.folders.map((f) => (
            <li key={f.path}>
              <button type="button" className="folder-browser__folder" onClick={() => onOpen(f.path)}>
                <Icon name="folders" size={20} />
                <span>{f.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}


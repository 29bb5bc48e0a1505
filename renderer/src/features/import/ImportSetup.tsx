/**
 * "Import from this account": what to import (a provider whose scope is a folder gets the folder browser; any other
 * scope fields are drawn as a form) and into which repository (the primary unless the member picks another that can
 * be reached), then "Import this folder" binds the account's folder to the repository and starts the run
 * (bindRepositoryCloudSource). Binding the same folder again starts a run of the same binding: only what is new is
 * fetched.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { LoadError } from '../../components/LoadError';
import { emptyValues, FieldInput, filledInputs } from './FieldInput';
import { FolderBrowser } from './FolderBrowser';
import { RepositorySelect } from './RepositorySelect';
import { useImportRepositories, useStartImport, type CloudCredential, type CloudProvider, type ImportRun } from './import-api';
import { activeRunIn, importProblemWords, inputErrors } from './problem-words';

/** The scope field a folder browser fills (WebDAV's remote folder). */
const FOLDER_FIELD = 'folder';

interface ImportSetupProps {
  credential: CloudCredential;
  provider: CloudProvider | undefined;
  onStarted: (run: ImportRun) => void;
  /** Show a run instead (the one already going on from this folder). */
  onShowRun: (runId: string) => void;
  onCancel: () => void;
}

export function ImportSetup({ credential, provider, onStarted, onShowRun, onCancel }: ImportSetupProps) {
  const repositories = useImportRepositories();
  const start = useStartImport();
  const scopeFields = provider?.scope_fields ?? [];
  const byFolder = scopeFields.some((f) => f.name === FOLDER_FIELD);
  const otherFields = scopeFields.filter((f) => f.name !== FOLDER_FIELD);
  const [folder, setFolder] = useState('');
  const [values, setValues] = useState(() => emptyValues(otherFields));
  const [chosenRepository, setChosenRepository] = useState<string | null>(null);
  const headingId = useId();
  const section = useRef<HTMLElement>(null);

  // Opened from an account: on a phone it is below the accounts and providers, so bring it into view.
  useEffect(() => section.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }), []);

  const list = repositories.data ?? [];
  const repository = list.find((r) => r.id === chosenRepository) ?? list.find((r) => r.is_primary) ?? list[0];
  const folderName = folder ? (folder.split('/').at(-1) ?? folder) : 'everything';
  const activeRun = activeRunIn(start.error);
  const errors = inputErrors(start.error);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!repository) return;
    const scope = { ...filledInputs(otherFields, values), ...(byFolder ? { [FOLDER_FIELD]: folder } : {}) };
    start.mutate({ repositoryId: repository.id, credentialId: credential.id, scope }, { onSuccess: ({ run }) => onStarted(run) });
  };

  return (
    <section ref={section} className="card import-setup" aria-labelledby={headingId}>
      <h2 className="card__title" id={headingId}>
        Import from {credential.display_name}
      </h2>
      <form className="form" onSubmit={submit}>
        {byFolder && (
          <div className="field">
            <p className="field__label">Folder to import</p>
            <p className="field__hint">Tap a folder to look inside it. Everything in the folder you are in is imported, with the folders inside it.</p>
            <FolderBrowser credentialId={credential.id} provider={credential.provider} topName={credential.display_name} folder={folder} onOpen={setFolder} />
          </div>
        )}
        {otherFields.map((f) => (
          <FieldInput key={f.name} field={f} value={values[f.name] ?? ''} onChange={(v) => setValues((s) => ({ ...s, [f.name]: v }))} error={errors[f.name]} />
        ))}

        {repositories.isError ? (
          <LoadError error={repositories.error} onRetry={() => void repositories.refetch()} />
        ) : !repositories.data ? (
          <p aria-busy="true">Loading…</p>
        ) : !repository ? (
          <p className="notice notice--error" role="alert">
            No repository can be reached right now, so there is nowhere to import to. Ask your administrator to check the storage.
          </p>
        ) : list.length > 1 ? (
          <RepositorySelect list={list} value={repository.id} onChange={setChosenRepository} />
        ) : (
          <p className="import-setup__into">
            Into your library (<strong>{repository.name}</strong>).
          </p>
        )}

        {byFolder ? (
          <p className="field__hint" aria-live="polite">
            {folder ? `Imports “${folderName}” and the folders inside it.` : 'Imports everything in this account.'} Nothing on the server is changed.
          </p>
        ) : (
          // A provider without a scope to choose (iCloud Photos: the whole library): say what the button starts.
          scopeFields.length === 0 && (
            <p className="field__hint">Imports the whole library of this account; a later import fetches only what is new. Nothing there is changed or deleted.</p>
          )
        )}
        <FormError message={start.error ? importProblemWords(start.error, credential.provider) : null} />
        {activeRun && (
          <Button variant="secondary" onClick={() => onShowRun(activeRun)}>
            Show that import
          </Button>
        )}
        <div className="form__actions">
          <Button type="submit" busy={start.isPending} busyLabel="Starting…" disabled={!repository}>
            {byFolder ? 'Import this folder' : 'Start import'}
          </Button>
          <Button variant="quiet" onClick={onCancel} disabled={start.isPending}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}

/**
 * "Create link": a public link to an album or to selected photos, with its expiry (30 days unless
 * changed, at most a year), an optional password and whether visitors may download. Once made, the
 * address is shown with a Copy button (the server shows the key this once; the Shared links list
 * on the Account page manages the link later).
 */
import { formatDate } from '../../lib/dates';
import { useState } from 'react';
import { Button } from '../../components/Button';
import { CopyableSecret } from '../../components/CopyableSecret';
import { TextField } from '../../components/TextField';
import { fieldError, formError } from './field-errors';
import { DEFAULT_EXPIRY_DAYS, MAX_EXPIRY_DAYS, dayFromToday, endOfDay, expiryProblem } from './link-expiry';
import { SharingDialog } from './SharingDialog';
import { publicLinkUrl, useCreateShareLink } from './sharing-api';

export type LinkTarget = { album_id: number; name: string } | { asset_ids: string[] };

export function ShareLinkDialog({ target, onClose }: { target: LinkTarget; onClose: () => void }) {
  const create = useCreateShareLink();
  const [title, setTitle] = useState('');
  const [expiry, setExpiry] = useState(() => dayFromToday(DEFAULT_EXPIRY_DAYS));
  const [password, setPassword] = useState('');
  const [allowDownload, setAllowDownload] = useState(true);
  const [localExpiry, setLocalExpiry] = useState<string | null>(null);
  const what = 'album_id' in target ? `the album “${target.name}”` : target.asset_ids.length === 1 ? '1 photo' : `${target.asset_ids.length} photos`;
  const made = create.data;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const problem = expiryProblem(expiry);
    setLocalExpiry(problem);
    if (problem) return;
    create.mutate({
      ...('album_id' in target ? { album_id: target.album_id } : { asset_ids: target.asset_ids }),
      ...(title.trim() ? { title: title.trim() } : {}),
      expires_at: endOfDay(expiry),
      ...(password ? { password } : {}),
      allow_download: allowDownload,
    });
  };

  return (
    <SharingDialog title="Create link" onClose={onClose}>
      {made?.key ? (
        <div className="form">
          <p>
            Anyone with this link can see {what}
            {made.has_password ? ' after typing the password' : ''} until {formatDate(made.expires_at)}
            {made.allow_download ? ', and download them.' : '.'}
          </p>
          <CopyableSecret label="Link" value={publicLinkUrl(made.key)} />
          <div className="form__actions">
            <a className="button button--secondary" href={publicLinkUrl(made.key)} target="_blank" rel="noreferrer">
              Open link
            </a>
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      ) : (
        <form className="form" onSubmit={submit} noValidate aria-label="New link">
          <p>A link lets anyone who has it see {what}, without an account.</p>
          <TextField label="Title" labelNote="optional" value={title} maxLength={200} onChange={setTitle} error={fieldError(create.error, 'title')} />
          <TextField
            label="Works until"
            type="date"
            value={expiry}
            max={dayFromToday(MAX_EXPIRY_DAYS)}
            hint={`The link stops working after this day (at most ${MAX_EXPIRY_DAYS} days from today).`}
            onChange={(v) => {
              setExpiry(v);
              setLocalExpiry(null);
              create.reset();
            }}
            error={localExpiry ?? fieldError(create.error, 'expires_at')}
          />
          <TextField
            label="Password"
            labelNote="optional"
            type="password"
            autoComplete="new-password"
            value={password}
            hint="Visitors type it before they see anything. At least 4 characters."
            onChange={setPassword}
            error={fieldError(create.error, 'password')}
          />
          <label className="share-check">
            <input type="checkbox" checked={allowDownload} onChange={(e) => setAllowDownload(e.target.checked)} />
            Allow downloads (the original files and a zip of them)
          </label>
          {formError(create.error, ['title', 'expires_at', 'password']) && (
            <p className="field__error" role="alert">
              {formError(create.error, ['title', 'expires_at', 'password'])}
            </p>
          )}
          <div className="form__actions">
            <Button type="submit" busy={create.isPending} busyLabel="Creating…">
              Create link
            </Button>
          </div>
        </form>
      )}
    </SharingDialog>
  );
}

/**
 * Account → Shared links: every public link I made, with what it shows and its state; change the
 * expiry, the password or downloads, withdraw it (revoke; it can be opened again) or delete it.
 * The link's address itself is shown only when it is made (the server keeps a hash of the key).
 */
import { formatDate } from '../../lib/dates';
import { useState } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { fieldError, formError } from './field-errors';
import { dayFromToday, dayOf, endOfDay, expiryProblem, MAX_EXPIRY_DAYS } from './link-expiry';
import { useDeleteShareLink, useShareLinks, useUpdateShareLink, type ShareLink } from './sharing-api';
import './sharing.css';

const STATUS_LABEL: Record<ShareLink['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Withdrawn' };

const nameOf = (l: ShareLink) => l.title ?? (l.album_name ? `Album “${l.album_name}”` : l.asset_count === 1 ? '1 photo' : `${l.asset_count} photos`);

export function ShareLinksSection() {
  const links = useShareLinks();
  const list = links.data?.links ?? [];
  return (
    <section className="card" aria-labelledby="links-heading">
      <h2 className="card__title" id="links-heading">
        Shared links
      </h2>
      <p className="card__intro">Links you made to albums or photos. Anyone with a link can open it until it expires or you withdraw it.</p>
      {links.isError && <p className="field__error">{messageOf(links.error)}</p>}
      {links.isSuccess && list.length === 0 && <p className="share-muted">No links yet. Select photos, or open an album, and choose “Create link”.</p>}
      <ul className="share-list" aria-label="Your links">
        {list.map((l) => (
          <LinkRow key={l.link_id} link={l} />
        ))}
      </ul>
    </section>
  );
}

function LinkRow({ link }: { link: ShareLink }) {
  const update = useUpdateShareLink();
  const remove = useDeleteShareLink();
  const [editing, setEditing] = useState(false);
  const facts = [
    link.asset_count === 1 ? '1 photo' : `${link.asset_count} photos`,
    link.expires_at ? `until ${formatDate(link.expires_at)}` : 'no expiry',
    link.has_password ? 'password' : 'no password',
    link.allow_download ? 'downloads allowed' : 'no downloads',
  ].join(' · ');
  const name = nameOf(link);

  return (
    <li className="share-item">
      <div className="share-item__head">
        <strong>{name}</strong>
        <span className={link.status === 'active' ? 'share-status share-status--active' : 'share-status'}>{STATUS_LABEL[link.status]}</span>
      </div>
      <p className="share-item__facts">{facts}</p>
      <div className="share-item__actions">
        <Button variant="secondary" aria-expanded={editing} aria-label={`Change ${name}`} onClick={() => setEditing((v) => !v)}>
          Change
        </Button>
        <Button
          variant="secondary"
          aria-label={link.revoked_at ? `Open ${name} again` : `Withdraw ${name}`}
          busy={update.isPending && update.variables?.revoked !== undefined}
          disabled={update.isPending}
          onClick={() => update.mutate({ id: link.link_id, revoked: !link.revoked_at })}
        >
          {link.revoked_at ? 'Open again' : 'Withdraw'}
        </Button>
        <Button
          variant="quiet"
          aria-label={`Delete ${name}`}
          busy={remove.isPending}
          busyLabel="Deleting…"
          onClick={() => {
            if (window.confirm(`Delete the link to ${name}? It stops working for everyone who has it.`)) remove.mutate(link.link_id);
          }}
        >
          Delete
        </Button>
      </div>
      {editing && <LinkEditForm link={link} onDone={() => setEditing(false)} />}
      {(remove.error || (update.error && !editing)) && (
        <p className="field__error" role="alert">
          {messageOf(remove.error ?? update.error)}
        </p>
      )}
    </li>
  );
}

function LinkEditForm({ link, onDone }: { link: ShareLink; onDone: () => void }) {
  const update = useUpdateShareLink();
  const [expiry, setExpiry] = useState(link.expires_at ? dayOf(link.expires_at) : dayFromToday(30));
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const [allowDownload, setAllowDownload] = useState(link.allow_download);
  const [localExpiry, setLocalExpiry] = useState<string | null>(null);
  const fields = ['expires_at', 'password', 'allow_download'];

  return (
    <form
      className="form"
      aria-label="Change link"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const problem = expiryProblem(expiry);
        setLocalExpiry(problem);
        if (problem) return;
        update.mutate(
          {
            id: link.link_id,
            expires_at: endOfDay(expiry),
            allow_download: allowDownload,
            ...(removePassword ? { password: null } : password ? { password } : {}),
          },
          { onSuccess: onDone },
        );
      }}
    >
      <TextField
        label="Works until"
        type="date"
        value={expiry}
        max={dayFromToday(MAX_EXPIRY_DAYS)}
        onChange={(v) => {
          setExpiry(v);
          setLocalExpiry(null);
          update.reset();
        }}
        error={localExpiry ?? fieldError(update.error, 'expires_at')}
      />
      <TextField
        label={link.has_password ? 'New password' : 'Password'}
        labelNote="optional"
        type="password"
        autoComplete="new-password"
        value={password}
        disabled={removePassword}
        hint={link.has_password ? 'Leave empty to keep the current password.' : 'At least 4 characters.'}
        onChange={setPassword}
        error={fieldError(update.error, 'password')}
      />
      {link.has_password && (
        <label className="share-check">
          <input type="checkbox" checked={removePassword} onChange={(e) => setRemovePassword(e.target.checked)} />
          Remove the password
        </label>
      )}
      <label className="share-check">
        <input type="checkbox" checked={allowDownload} onChange={(e) => setAllowDownload(e.target.checked)} />
        Allow downloads
      </label>
      {formError(update.error, fields) && (
        <p className="field__error" role="alert">
          {formError(update.error, fields)}
        </p>
      )}
      <div className="form__actions">
        <Button type="submit" busy={update.isPending} busyLabel="Saving…">
          Save link
        </Button>
        <Button variant="quiet" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

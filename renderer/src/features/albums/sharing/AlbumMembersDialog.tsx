/**
 * "Share" in an album: who is in it and with what role. The owner adds members of the household
 * as viewers (they look) or contributors (they also add their own photos), changes roles and removes
 * members; a member sees the same list and can leave the album. A refusal from the server shows
 * under the field it names (field-errors.ts).
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOf } from '../../../api/problem';
import { Button } from '../../../components/Button';
import type { Album } from '../albums-api';
import { fieldError, formError, ROLE_HELP, RoleSelect, SharingDialog, useHouseholdMembers, type AlbumRole } from '../../sharing';
import { useAddAlbumMember, useAlbumMembers, useRemoveAlbumMember, useUpdateAlbumMember } from './album-members-api';

export function AlbumMembersDialog({ album, myUserId, onClose }: { album: Album; myUserId: number; onClose: () => void }) {
  const isOwner = album.role === 'owner';
  const members = useAlbumMembers(album.album_id);
  const update = useUpdateAlbumMember(album.album_id);
  const remove = useRemoveAlbumMember(album.album_id);
  const navigate = useNavigate();
  const list = members.data?.members ?? [];
  const owner = members.data?.owner;

  const leave = () => {
    if (!window.confirm(`Leave “${album.album_name}”? The photos you added leave the album with you; they stay in your library.`)) return;
    remove.mutate(myUserId, { onSuccess: () => void navigate('/albums') });
  };

  return (
    <SharingDialog title={isOwner ? `Share “${album.album_name}”` : `Members of “${album.album_name}”`} onClose={onClose}>
      {members.isPending && <p role="status">Loading members…</p>}
      {members.isError && <p className="field__error">{messageOf(members.error)}</p>}
      <ul className="share-people" aria-label="Album members">
        {owner && (
          <li className="share-person">
            <span className="share-initials" aria-hidden="true">
              {owner.initials}
            </span>
            <span className="share-person__name">
              {owner.display_name}
              {owner.user_id === myUserId ? ' (you)' : ''}
            </span>
            <span className="share-person__role">Owner</span>
          </li>
        )}
        {list.map((m) => (
          <li key={m.user_id} className="share-person">
            <span className="share-initials" aria-hidden="true">
              {m.initials}
            </span>
            <span className="share-person__name">
              {m.display_name}
              {m.user_id === myUserId ? ' (you)' : ''}
            </span>
            {isOwner ? (
              <>
                <RoleSelect
                  label={`Role of ${m.display_name}`}
                  value={m.role}
                  disabled={update.isPending}
                  onChange={(role) => update.mutate({ userId: m.user_id, role })}
                />
                <Button variant="quiet" aria-label={`Remove ${m.display_name}`} disabled={remove.isPending} onClick={() => remove.mutate(m.user_id)}>
                  Remove
                </Button>
              </>
            ) : (
              <span className="share-person__role">{m.role === 'viewer' ? 'Viewer' : 'Contributor'}</span>
            )}
          </li>
        ))}
      </ul>
      {members.isSuccess && list.length === 0 && <p className="share-muted">Only you see this album so far.</p>}
      {(update.error ?? remove.error) && (
        <p className="field__error" role="alert">
          {messageOf(update.error ?? remove.error)}
        </p>
      )}
      {isOwner ? (
        <AddMemberForm albumId={album.album_id} present={new Set([...(owner ? [owner.user_id] : []), ...list.map((m) => m.user_id)])} />
      ) : (
        <div className="form__actions">
          <Button variant="danger" busy={remove.isPending} busyLabel="Leaving…" onClick={leave}>
            Leave album
          </Button>
        </div>
      )}
    </SharingDialog>
  );
}

function AddMemberForm({ albumId, present }: { albumId: number; present: Set<number> }) {
  const household = useHouseholdMembers();
  const add = useAddAlbumMember(albumId);
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<AlbumRole>('viewer');
  const choices = (household.data?.members ?? []).filter((m) => !present.has(m.user_id));
  const userError = fieldError(add.error, 'user_id');

  return (
    <form
      className="form share-add"
      aria-label="Add a member"
      onSubmit={(e) => {
        e.preventDefault();
        if (!userId) return;
        add.mutate({ user_id: Number(userId), role }, { onSuccess: () => setUserId('') });
      }}
    >
      <h3>Add someone</h3>
      {household.isSuccess && household.data.members.length === 0 ? (
        <p className="share-muted">Nobody else has an account yet. The administrator can invite members on the Users page.</p>
      ) : (
        <>
          <div className={userError ? 'field field--invalid' : 'field'}>
            <label className="field__label" htmlFor="share-add-member">
              Member
            </label>
            <select
              id="share-add-member"
              className="field__input"
              value={userId}
              onChange={(e) => {
                add.reset();
                setUserId(e.target.value);
              }}
              aria-invalid={userError ? true : undefined}
              aria-describedby={userError ? 'share-add-member-error' : undefined}
            >
              <option value="">Choose a member…</option>
              {choices.map((m) => (
                <option key={m.user_id} value={m.user_id}>
                  {m.display_name}
                </option>
              ))}
            </select>
            {userError && (
              <p className="field__error" id="share-add-member-error">
                {userError}
              </p>
            )}
          </div>
          <RoleSelect label="Role" value={role} onChange={setRole} hint={ROLE_HELP[role]} />
          {formError(add.error, ['user_id']) && (
            <p className="field__error" role="alert">
              {formError(add.error, ['user_id'])}
            </p>
          )}
          <div className="form__actions">
            <Button type="submit" busy={add.isPending} busyLabel="Adding…" disabled={!userId}>
              Add to album
            </Button>
          </div>
        </>
      )}
    </form>
  );
}

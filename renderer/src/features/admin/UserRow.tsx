/**
 * One account in the administration list. Role and status change at once. An administrator cannot
 * change their own role or status here (that could lock them out mid-click); another administrator
 * can, and their own password lives on the Account page.
 */
import { formatDateTime } from '../../lib/dates';
import { useId } from 'react';
import { messageOf } from '../../api/problem';
import type { Role } from '../../api/types';
import { FormError } from '../../components/FormError';
import { initialsOf, ROLE_LABEL } from '../../lib/roles';
import { useUpdateUser, type AdminUser } from './admin-api';
import { ResetAccess } from './ResetAccess';
import { SignOutEverywhere } from './SignOutEverywhere';


export function UserRow({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const update = useUpdateUser();
  const roleId = useId();
  const activeId = useId();
  const name = user.display_name;
  const busy = update.isPending;

  return (
    <li className={`user-row${user.is_active ? '' : ' user-row--inactive'}`}>
      <div className="user-row__who">
        <span className="avatar" aria-hidden="true">
          {initialsOf(name || user.username)}
        </span>
        <div>
          <h3 className="user-row__name">
            {name} {isSelf && <span className="badge">You</span>}
            {!user.is_active && <span className="badge badge--muted">Deactivated</span>}
          </h3>
          <p className="user-row__meta">
            @{user.username} · {user.last_login ? `last signed in ${formatDateTime(user.last_login)}` : 'never signed in'}
            {' · '}
            {user.stats.active_sessions === 1 ? '1 active session' : `${user.stats.active_sessions} active sessions`}
            {' · '}
            {user.stats.second_factors.length ? 'two-step sign-in on' : 'password only'}
          </p>
          {isSelf && <p className="user-row__note">That is you: change your own password on your Account page.</p>}
        </div>
      </div>

      <div className="user-row__controls">
        <div className="inline-field">
          <label htmlFor={roleId}>
            Role<span className="visually-hidden"> for {name}</span>
          </label>
          <select
            id={roleId}
            value={user.role}
            disabled={isSelf || busy}
            onChange={(e) => update.mutate({ id: user.user_id, patch: { role: e.target.value as Role } })}
          >
            {(Object.keys(ROLE_LABEL) as Role[]).map((role) => (
              <option key={role} value={role}>
                {ROLE_LABEL[role]}
              </option>
            ))}
          </select>
        </div>
        <div className="inline-field inline-field--check">
          <input
            id={activeId}
            type="checkbox"
            checked={user.is_active}
            disabled={isSelf || busy}
            onChange={(e) => update.mutate({ id: user.user_id, patch: { is_active: e.target.checked } })}
          />
          <label htmlFor={activeId}>
            Can sign in<span className="visually-hidden"> ({name})</span>
          </label>
        </div>
        {!isSelf && <SignOutEverywhere user={user} />}
        {!isSelf && <ResetAccess user={user} />}
      </div>
      <FormError message={update.error ? messageOf(update.error) : null} />
    </li>
  );
}

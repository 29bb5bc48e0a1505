import { NavLink } from 'react-router';
import { Icon } from '../Icon';
import { Button } from '../Button';
import { initialsOf, ROLE_LABEL } from '../../lib/roles';
import type { User } from '../../api/types';

/** Who is signed in, with the way to their account page and out. */
export function UserPanel({ user, onSignOut, signingOut }: { user: User; onSignOut: () => void; signingOut: boolean }) {
  return (
    <div className="user-panel">
      <div className="user-panel__who">
        <span className="avatar" aria-hidden="true">
          {initialsOf(user.display_name || user.username)}
        </span>
        <span className="user-panel__names">
          <span className="user-panel__name">{user.display_name}</span>
          <span className="user-panel__meta">
            @{user.username} · {ROLE_LABEL[user.role]}
          </span>
        </span>
      </div>
      <ul className="nav__list">
        <li>
          <NavLink to="/account" className="nav__link">
            <Icon name="account" />
            <span>Account</span>
          </NavLink>
        </li>
        <li>
          <Button variant="quiet" className="nav__link nav__link--button" onClick={onSignOut} busy={signingOut} busyLabel="Signing out…">
            <Icon name="signOut" />
            <span>Sign out</span>
          </Button>
        </li>
      </ul>
    </div>
  );
}

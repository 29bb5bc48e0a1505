import { messageOf } from '../../api/problem';
import { useMe } from '../../api/use-me';
import { useUsers } from './admin-api';
import { UserRow } from './UserRow';

export function UsersPanel() {
  const me = useMe();
  const users = useUsers();
  return (
    <section className="card" aria-labelledby="users-heading">
      <h2 className="card__title" id="users-heading">
        Users
      </h2>
      <p className="card__intro">
        Everyone with an account on this Hearth. Deactivating an account signs it out everywhere. Administrators manage accounts
        and settings; they do not see other people&apos;s photos.
      </p>
      {users.isPending && <p role="status">Loading accounts…</p>}
      {users.isError && (
        <div className="notice notice--error" role="alert">
          {messageOf(users.error)}
        </div>
      )}
      {users.data && (
        <>
          <ul className="user-list" aria-label="Accounts">
            {users.data.users.map((u) => (
              <UserRow key={u.user_id} user={u} isSelf={u.user_id === me?.user_id} />
            ))}
          </ul>
          {users.data.total > users.data.users.length && (
            <p className="field__hint">
              Showing the first {users.data.users.length} of {users.data.total} accounts.
            </p>
          )}
        </>
      )}
    </section>
  );
}

import { PageHeader } from '../../components/PageHeader';
import { RegistrationPanel } from './RegistrationPanel';
import { UsersPanel } from './UsersPanel';

export function AdminPage() {
  return (
    <>
      <PageHeader title="Users & settings">
        <p>Who can use this Hearth, and how new people join.</p>
      </PageHeader>
      <div className="stack">
        <UsersPanel />
        <RegistrationPanel />
      </div>
    </>
  );
}

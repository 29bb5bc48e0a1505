import { PageHeader } from '../../components/PageHeader';
import { AssistantCard } from './AssistantCard';
import { CreateUserPanel } from './CreateUserPanel';
import { InvitesPanel } from './InvitesPanel';
import { NetworkPanel } from './NetworkPanel';
import { RegistrationPanel } from './RegistrationPanel';
import { TrashRetentionPanel } from './TrashRetentionPanel';
import { UsersPanel } from './UsersPanel';

export function AdminPage() {
  return (
    <>
      <PageHeader title="Users & settings">
        <p>Who can use this Hearth, from which devices, and how new people join.</p>
      </PageHeader>
      <div className="stack">
        <NetworkPanel />
        <UsersPanel />
        <InvitesPanel />
        <CreateUserPanel />
        <RegistrationPanel />
        <TrashRetentionPanel />
        <AssistantCard />
      </div>
    </>
  );
}

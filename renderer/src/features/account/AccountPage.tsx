import { useMe } from '../../api/use-me';
import { PageHeader } from '../../components/PageHeader';
import { ROLE_LABEL } from '../../lib/roles';
import { PartnerSharingSection, ShareLinksSection } from '../sharing';
import { PasswordForm } from './PasswordForm';
import { ProfileForm } from './ProfileForm';
import { SecuritySection } from './security/SecuritySection';
import { SignedInDevicesSection } from './sessions/SignedInDevicesSection';

export function AccountPage() {
  const me = useMe();
  if (!me) return null;
  return (
    <>
      <PageHeader title="Account">
        <p>
          Signed in as <strong>{me.username}</strong> ({ROLE_LABEL[me.role].toLowerCase()}).
        </p>
      </PageHeader>
      <div className="stack">
        {/* Keyed by user so the form starts from the right name if someone else signs in in another tab. */}
        <ProfileForm key={me.user_id} user={me} />
        <PasswordForm />
        <SecuritySection />
        <SignedInDevicesSection />
        <PartnerSharingSection />
        <ShareLinksSection />
      </div>
    </>
  );
}

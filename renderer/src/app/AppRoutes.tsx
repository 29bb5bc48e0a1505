/**
 * The top-level switch: wait for the session to be restored and the install's bootstrap status,
 * then show either the signed-in app or the signed-out pages.
 */
import { useSession } from '../api/use-session';
import { session } from '../api/session';
import { messageOf } from '../api/problem';
import { Button } from '../components/Button';
import { Splash } from '../components/Splash';
import { useBootstrapStatus } from '../features/auth/auth-api';
import { SignedInApp } from './SignedInApp';
import { SignedOutApp } from './SignedOutApp';

export function AppRoutes() {
  const { status, notice } = useSession();
  const bootstrap = useBootstrapStatus();

  if (status === 'signed-in') return <SignedInApp />;
  if (status === 'restoring' || bootstrap.isPending) return <Splash message="Opening Hearth…" />;
  if (status === 'unreachable' || bootstrap.isError) {
    return (
      <Splash message={notice ?? (bootstrap.isError ? messageOf(bootstrap.error) : 'Hearth could not be reached.')}>
        <Button
          onClick={() => {
            if (status === 'unreachable') void session.restore();
            if (bootstrap.isError) void bootstrap.refetch();
          }}
        >
          Try again
        </Button>
      </Splash>
    );
  }
  return <SignedOutApp status={bootstrap.data} />;
}

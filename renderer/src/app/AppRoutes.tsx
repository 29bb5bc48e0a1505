/**
 * The top-level switch: wait for the session to be restored and the install's bootstrap status,
 * then show either the signed-in app or the signed-out pages. Each of the two is its own script
 * (lazy-page.ts): a person signing in does not load the library, and a signed-in one does not load
 * the sign-in pages.
 */
import { Suspense } from 'react';
import { useSession } from '../api/use-session';
import { session } from '../api/session';
import { messageOf } from '../api/problem';
import { Button } from '../components/Button';
import { Splash } from '../components/Splash';
import { useBootstrapStatus } from '../features/auth/auth-api';
import { lazyPage } from '../lib/lazy-page';

const SignedInApp = lazyPage(() => import('./SignedInApp').then((m) => m.SignedInApp));
const SignedOutApp = lazyPage(() => import('./SignedOutApp').then((m) => m.SignedOutApp));
const opening = <Splash message="Opening Hearth…" />;

export function AppRoutes() {
  const { status, notice } = useSession();
  const bootstrap = useBootstrapStatus();

  if (status === 'signed-in') {
    return (
      <Suspense fallback={opening}>
        <SignedInApp />
      </Suspense>
    );
  }
  if (status === 'restoring' || bootstrap.isPending) return opening;
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
  return (
    <Suspense fallback={opening}>
      <SignedOutApp status={bootstrap.data} />
    </Suspense>
  );
}

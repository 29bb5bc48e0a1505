/** Before sign-in: the first-run page on a fresh install, otherwise sign-in and account creation. */
import { Navigate, Route, Routes, useLocation } from 'react-router';
import type { BootstrapStatus } from '../api/types';
import { SignInPage } from '../features/auth/SignInPage';
import { lazyPage } from '../lib/lazy-page';

// The sign-in page comes with this script (it is the first screen); the rarer pages load when shown.
const ChoosePasswordPage = lazyPage(() => import('../features/auth/ChoosePasswordPage').then((m) => m.ChoosePasswordPage));
const CreateAccountPage = lazyPage(() => import('../features/auth/CreateAccountPage').then((m) => m.CreateAccountPage));
const FirstRunPage = lazyPage(() => import('../features/auth/FirstRunPage').then((m) => m.FirstRunPage));

function ToSignIn() {
  const location = useLocation();
  // Remember where the person was going, to continue there after signing in.
  return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
}

export function SignedOutApp({ status }: { status: BootstrapStatus }) {
  // Until the administrator exists, every address leads to creating it.
  if (status.bootstrap_mode) return <FirstRunPage status={status} />;
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route path="/create-account" element={<CreateAccountPage status={status} />} />
      {/* Invite links (features/admin/InvitesPanel) open here with ?invite=<code>. */}
      <Route path="/join" element={<CreateAccountPage status={status} />} />
      <Route path="/choose-password" element={<ChoosePasswordPage />} />
      <Route path="*" element={<ToSignIn />} />
    </Routes>
  );
}

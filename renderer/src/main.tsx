import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { startApp } from './app/start';
import { publicLinkKey } from './features/sharing/public/public-path';
import './styles/theme.css';
import './styles/components.css';
import './styles/layout.css';

const root = createRoot(document.getElementById('root')!);
const linkKey = publicLinkKey(window.location.pathname);

if (linkKey !== null) {
  // A public link (`/s/<key>`): its own page, without the app or its session (no /me, no refresh).
  const PublicLinkApp = lazy(() => import('./features/sharing/public/PublicLinkApp'));
  root.render(
    <StrictMode>
      <Suspense fallback={null}>
        <PublicLinkApp linkKey={linkKey} />
      </Suspense>
    </StrictMode>,
  );
} else {
  // The app is in the same script (one script compresses better than several: the first screen's
  // budget, npm run bench:bundle); a link's page loads it but never starts it (no session).
  startApp(root);
}

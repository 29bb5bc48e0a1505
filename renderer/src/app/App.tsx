import { BrowserRouter } from 'react-router';
import { AppRoutes } from './AppRoutes';
import { Providers } from './providers';

export function App() {
  return (
    <Providers>
      {/* Navigation without transitions: filters and switches are controlled inputs bound to the
          URL, and React puts a controlled input back when its new value arrives in a transition
          (until that commits), so a switch flipped back under the pointer. Pages load their
          script on first visit (lazy-page.ts): without transitions, that first visit shows the
          page's "Loading…" for a moment instead of keeping the previous page. */}
      <BrowserRouter useTransitions={false}>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  );
}

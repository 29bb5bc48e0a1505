import { BrowserRouter } from 'react-router';
import { AppRoutes } from './AppRoutes';
import { Providers } from './providers';

export function App() {
  return (
    <Providers>
      {/* Navigation without transitions: filters and switches are controlled inputs bound to the
          URL, and React puts a controlled input back when its new value arrives in a transition
          (until that commits), so a switch flipped back under the pointer. The app has no
          suspending routes that a transition would keep on screen. */}
      <BrowserRouter useTransitions={false}>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  );
}

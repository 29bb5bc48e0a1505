import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { session } from './api/session';
import { App } from './app/App';
import './styles/theme.css';
import './styles/components.css';
import './styles/layout.css';

// Start restoring the session from the refresh cookie before React renders, in parallel with the
// bootstrap status request the first render makes.
void session.restore();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

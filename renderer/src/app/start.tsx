/**
 * The signed-in (and signing-in) app: restore the session from the refresh cookie, then render.
 * Loaded by main.tsx for every address but a public link's, so a visitor's page never holds a
 * session (features/sharing/public).
 */
import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { session } from '../api/session';
import { App } from './App';
import { fillAppPhotoSlots } from './photo-slots';

export function startApp(root: Root) {
  // Start restoring the session before React renders, in parallel with the bootstrap status
  // request the first render makes.
  void session.restore();
  // The features' parts of the shared grid and viewer, before the first render reads them.
  fillAppPhotoSlots();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

import { useSyncExternalStore } from 'react';
import { session, type SessionState } from './session';

/** The session state, re-rendering on every change (sign-in, renewal with new user details, sign-out). */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState);
}

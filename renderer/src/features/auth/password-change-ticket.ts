/**
 * Hands the one-time password change token from the sign-in page to the "Choose a new password"
 * page. Kept in memory only: it is a credential for ten minutes, and browser history state would
 * write it to disk with the session history.
 */
import type { Session, User } from '../../api/types';

export interface PasswordChangeTicket {
  token: string;
  user: User;
  /** A first password the administrator gave a new account, or a temporary one after an access reset. */
  reason: NonNullable<Session['password_change_reason']>;
}

let ticket: PasswordChangeTicket | null = null;

export const passwordChangeTicket = {
  get: (): PasswordChangeTicket | null => ticket,
  set: (next: PasswordChangeTicket): void => {
    ticket = next;
  },
  clear: (): void => {
    ticket = null;
  },
};

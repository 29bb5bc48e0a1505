/**
 * Hands the one-time password change token from the sign-in page to the "Choose a new password"
 * page. Kept in memory only: it is a credential for ten minutes, and browser history state would
 * write it to disk with the session history.
 */
import type { User } from '../../api/types';

export interface PasswordChangeTicket {
  token: string;
  user: User;
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

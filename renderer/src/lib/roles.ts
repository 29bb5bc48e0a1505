import type { Role } from '../api/types';

/** How roles are called on screen: "admin" is the API's word; people read "Administrator". */
export const ROLE_LABEL: Record<Role, string> = { admin: 'Administrator', user: 'Member' };

export function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]![0], parts[parts.length - 1]![0]] : [...(parts[0] ?? '?')].slice(0, 2);
  return letters.join('').toUpperCase();
}

/**
 * The server's rules for account fields, checked before sending so people get told at once and in
 * plain words. The server checks again; its field errors land in the same places.
 */

export const USERNAME_HINT = '3–32 characters. Start with a letter; then letters, digits, dot, dash or underscore.';
export const PASSWORD_HINT = 'At least 10 characters. A few unrelated words make a strong one.';

export function checkUsername(value: string): string | null {
  const v = value.trim();
  if (!v) return 'Enter a user name.';
  if (v.length < 3) return 'Use at least 3 characters.';
  if (v.length > 32) return 'Use at most 32 characters.';
  if (!/^[A-Za-z]/.test(v)) return 'Start with a letter.';
  if (!/^[A-Za-z][A-Za-z0-9._-]*$/.test(v)) return 'Use only letters, digits, dot, dash or underscore.';
  return null;
}

export function checkNewPassword(value: string): string | null {
  if (!value) return 'Enter a password.';
  if (value.length < 10) return 'Use at least 10 characters.';
  if (value.length > 256) return 'Use at most 256 characters.';
  return null;
}

export function checkConfirmation(password: string, confirmation: string): string | null {
  if (!confirmation) return 'Type the password again.';
  return password === confirmation ? null : 'The two passwords are not the same.';
}

/** Display names may be left empty where optional (the server then uses the user name). */
export function checkDisplayName(value: string, { optional }: { optional: boolean }): string | null {
  const v = value.trim();
  if (!v) return optional ? null : 'Enter a name.';
  if (v.length > 64) return 'Use at most 64 characters.';
  return null;
}

export function checkRequired(value: string, message: string): string | null {
  return value.trim() ? null : message;
}

/** Drops the fields without a problem; an empty result means the form may be sent. */
export function onlyProblems(checks: Record<string, string | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(checks)) if (message) out[field] = message;
  return out;
}

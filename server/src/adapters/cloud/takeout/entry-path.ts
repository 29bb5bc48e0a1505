/**
 * Which archive entry names are safe to act on. An archive is untrusted input: a name that climbs out of its
 * folder (`../`), starts at the root (`/`, `C:`), hides a separator (`\`) or carries NUL or control characters is
 * never extracted and never shown as a file name; it becomes a problem naming the part.
 */

/** Why the entry name is unsafe, or null when it is a plain relative path with forward slashes. */
export function unsafeEntryReason(name: string): string | null {
  if (name.length === 0) return 'empty entry name';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'entry name holds NUL or control characters';
  if (name.includes('\\')) return 'entry name holds a backslash';
  if (name.startsWith('/')) return 'absolute entry path';
  if (/^[A-Za-z]:/.test(name)) return 'entry path starts with a drive letter';
  const segments = name.replace(/\/$/, '').split('/');
  if (segments.includes('..')) return 'entry path climbs out of the archive (..)';
  if (segments.some((s) => s === '' || s === '.')) return 'entry path has an empty or "." segment';
  return null;
}

/** A name fit for a report line: control characters shown as escapes so a hostile name cannot forge lines. */
export function printableName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

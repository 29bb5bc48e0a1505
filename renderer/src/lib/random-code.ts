/**
 * A readable random invite code such as `k7qm-x3vd-9hpt`. No 0/o, 1/l/i: people read these aloud
 * and type them on phones. getRandomValues (unlike randomUUID) also works over plain HTTP.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function randomInviteCode(groups = 3, groupLength = 4): string {
  const bytes = new Uint8Array(groups * groupLength);
  crypto.getRandomValues(bytes);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return Array.from({ length: groups }, (_, i) => chars.slice(i * groupLength, (i + 1) * groupLength)).join('-');
}

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

/** A random UUID (v4) usable as a client-chosen id (an upload session, an Idempotency-Key). crypto.randomUUID needs HTTPS; households often use plain HTTP on the LAN. */
export function randomId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

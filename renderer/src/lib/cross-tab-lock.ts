/**
 * Runs a task while holding a lock shared by every tab of this origin.
 *
 * Session refresh needs this: the refresh cookie is shared by all tabs, and presenting a refresh
 * token that another tab has already spent makes the server end every session of the account.
 *
 * The Web Locks API does it properly but only exists in secure contexts (HTTPS or localhost), and a
 * household server is often opened as http://192.168.x.y:6680. There a localStorage lease stands in:
 * write a claim, wait a moment, and go ahead only if the claim is still ours. It is not a perfect
 * mutex, but two tabs must both write within the settle window to collide, and the lease expires on
 * its own if a tab dies while holding it.
 */

const LEASE_MS = 20_000;
const SETTLE_MS = 40;
const POLL_MS = 80;

export async function withCrossTabLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.locks?.request) {
    return navigator.locks.request(name, { mode: 'exclusive' }, task);
  }
  return withStorageLease(name, task);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Lease {
  owner: string;
  until: number;
}

function readLease(key: string): Lease | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Lease) : null;
  } catch {
    return null;
  }
}

async function withStorageLease<T>(name: string, task: () => Promise<T>): Promise<T> {
  const key = `hearth-lock:${name}`;
  const owner = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  try {
    localStorage.getItem(key);
  } catch {
    // Storage disabled: nothing to coordinate through, so run unguarded rather than not at all.
    return task();
  }
  for (;;) {
    const lease = readLease(key);
    if (!lease || lease.until < Date.now()) {
      localStorage.setItem(key, JSON.stringify({ owner, until: Date.now() + LEASE_MS } satisfies Lease));
      await sleep(SETTLE_MS);
      if (readLease(key)?.owner === owner) break;
    }
    await sleep(POLL_MS + Math.random() * POLL_MS);
  }
  try {
    return await task();
  } finally {
    if (readLease(key)?.owner === owner) localStorage.removeItem(key);
  }
}

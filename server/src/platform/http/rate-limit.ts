/**
 * In-memory failure limiter for sign-in style endpoints. Each scope counts failures per client IP
 * and per subject (the account name): past the limit within the window the key is locked out for
 * `lockoutMs`, and every attempt meanwhile answers 429 with Retry-After, without even checking the
 * password (so a locked account cannot be probed). A success clears the subject's count.
 *
 * In memory on purpose: one process serves the household, and a restart forgetting counts is fine.
 */
import { TooManyRequests } from './errors.ts';

export interface LimitPolicy {
  windowMs: number;
  maxPerIp: number;
  maxPerSubject: number;
  lockoutMs: number;
}

/** Defaults: 60 failures a minute from one address, 8 on one account, then a 5 minute lockout. */
export const DEFAULT_LIMIT: LimitPolicy = { windowMs: 60_000, maxPerIp: 60, maxPerSubject: 8, lockoutMs: 5 * 60_000 };

interface Entry {
  failures: number[];
  lockedUntil: number;
}

const MAX_ENTRIES = 10_000;

export class FailureLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly scope: string,
    private readonly policy: LimitPolicy = DEFAULT_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  private keys(ip: string, subject?: string): { key: string; max: number }[] {
    const k = [{ key: `ip:${ip}`, max: this.policy.maxPerIp }];
    if (subject) k.push({ key: `sub:${subject.toLowerCase()}`, max: this.policy.maxPerSubject });
    return k;
  }

  /** Throws 429 when the address or the subject is locked out. */
  check(ip: string, subject?: string): void {
    const t = this.now();
    for (const { key } of this.keys(ip, subject)) {
      const e = this.entries.get(key);
      if (e && e.lockedUntil > t) {
        throw new TooManyRequests('Too many attempts. Wait a little and try again.', Math.ceil((e.lockedUntil - t) / 1000));
      }
    }
  }

  fail(ip: string, subject?: string): void {
    const t = this.now();
    for (const { key, max } of this.keys(ip, subject)) {
      const e = this.entries.get(key) ?? { failures: [], lockedUntil: 0 };
      e.failures = e.failures.filter((f) => f > t - this.policy.windowMs);
      e.failures.push(t);
      if (e.failures.length >= max) {
        e.lockedUntil = t + this.policy.lockoutMs;
        e.failures = [];
      }
      this.entries.delete(key);
      this.entries.set(key, e);
    }
    // Bounded memory: forget the oldest keys (Map keeps insertion order; fail() re-inserts).
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  succeed(subject: string): void {
    this.entries.delete(`sub:${subject.toLowerCase()}`);
  }
}

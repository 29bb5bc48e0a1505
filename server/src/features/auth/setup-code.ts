/**
 * The one-time setup code for a fresh install reached from another machine (a headless server, a
 * NAS). It is printed at start and written to `<dataDir>/setup-code.txt` (mode 0600) while no account
 * exists; creating the administrator consumes it and deletes the file. From the machine itself (the
 * Electron window, a browser on localhost) no code is needed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { safeEqual } from '../../platform/crypto/keys.ts';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export class SetupCode {
  private code: string | null = null;

  constructor(private readonly file: string) {}

  /** Creates (or keeps) the code while the install has no account; returns it, or null. */
  ensure(hasAccounts: boolean): string | null {
    if (hasAccounts) {
      this.consume();
      return null;
    }
    if (fs.existsSync(this.file)) this.code = fs.readFileSync(this.file, 'utf8').trim();
    if (!this.code) {
      const bytes = crypto.randomBytes(12);
      const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
      this.code = `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
      fs.writeFileSync(this.file, `${this.code}\n`, { mode: 0o600 });
    }
    return this.code;
  }

  matches(input: string): boolean {
    if (!this.code) return false;
    const norm = (s: string) => s.trim().toUpperCase().replace(/[^A-Z0-9]/g, '');
    return safeEqual(norm(input), norm(this.code));
  }

  consume(): void {
    this.code = null;
    fs.rmSync(this.file, { force: true });
  }
}

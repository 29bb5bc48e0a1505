/**
 * One random root key per installation (`<dataDir>/secret.key`, mode 0600), from which every purpose
 * gets its own key: HMAC-SHA256(root, "hearth:" + purpose). A leaked media token key can then never
 * sign access tokens, and rotating the root file signs everyone out at once.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';

export type KeyPurpose = 'access' | 'media' | 'csrf' | 'password-change' | 'settings' | 'share-link' | 'totp-secret' | 'recovery-code' | 'registration-stage' | 'cloud-credential';

export class KeyRing {
  private constructor(private readonly root: Buffer) {}

  static fromFile(file: string): KeyRing {
    if (!fs.existsSync(file)) {
      fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    }
    const root = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (root.length < 32) throw new Error(`${file} does not hold a 32-byte key; delete it to make a new one`);
    return new KeyRing(root);
  }

  key(purpose: KeyPurpose): Buffer {
    return crypto.createHmac('sha256', this.root).update(`hearth:${purpose}`).digest();
  }
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

export function hmac(key: Buffer, text: string): string {
  return crypto.createHmac('sha256', key).update(text).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * A software WebAuthn authenticator for server tests: an ES256 key pair per passkey, answers built
 * byte for byte as the WebAuthn spec lays them out (authenticator data, `none` attestation in CBOR,
 * client data JSON, a DER ECDSA signature over authData ‖ SHA-256(clientDataJSON)). Its knobs make the
 * wrong answers a test needs: another origin or rp id in what it signs, a counter it reports, no user
 * verification. Browser tests use Chromium's own virtual authenticator instead.
 */
import crypto from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** Headers a trusted reverse proxy sends for a browser that has `origin` open (the server runs with HEARTH_TRUST_PROXY). */
export function openAt(origin: string): Record<string, string> {
  const u = new URL(origin);
  return { 'x-forwarded-proto': u.protocol.replace(':', ''), 'x-forwarded-host': u.host };
}

const b64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | Buffer | string) => crypto.createHash('sha256').update(b).digest();

/** Options as the server sends them (only the fields used). */
interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export interface Knobs {
  /** The origin the "browser" puts in client data (default: the authenticator's). */
  origin?: string;
  /** The rp id whose hash goes into authenticator data (default: the options'). */
  rpId?: string;
  /** The signature counter to report (default: one more than last time). */
  counter?: number;
  /** Whether the user was verified (default true). */
  userVerified?: boolean;
  /** A challenge other than the options' (a replayed or made-up one). */
  challenge?: string;
}

export class SoftPasskey {
  readonly credentialId = crypto.randomBytes(16);
  private readonly keys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private counter = 0;
  private userHandle: string | null = null;

  constructor(readonly origin: string) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  private authData(rpId: string, counter: number, userVerified: boolean, attested: boolean): Buffer {
    const flags = 0x01 | (userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const jwk = this.keys.publicKey.export({ format: 'jwk' });
      const cose = new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), idLength, this.credentialId, Buffer.from(isoCBOR.encode(cose)));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(), as its JSON. */
  create(options: CreationOptions, knobs: Knobs = {}) {
    this.userHandle = options.user.id;
    const rpId = knobs.rpId ?? options.rp.id!;
    const authData = this.authData(rpId, knobs.counter ?? 0, knobs.userVerified ?? true, true);
    const attestation = new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', knobs.challenge ?? options.challenge, knobs.origin ?? this.origin)),
        attestationObject: b64url(isoCBOR.encode(attestation as never)),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get(), as its JSON; the counter goes up by one unless a knob says otherwise. */
  get(options: RequestOptions, knobs: Knobs = {}) {
    this.counter = knobs.counter ?? this.counter + 1;
    const authData = this.authData(knobs.rpId ?? options.rpId!, this.counter, knobs.userVerified ?? true, false);
    const clientData = this.clientData('webauthn.get', knobs.challenge ?? options.challenge, knobs.origin ?? this.origin);
    const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: this.userHandle ?? undefined },
      clientExtensionResults: {},
    };
  }
}

/**
 * Apple's web sign-in, step by step, as www.icloud.com (and icloudpd after it) performs it: SRP-6a against
 * idmsa (`signin/init`, `signin/complete`; the older password sign-in when SRP is refused), accountLogin at
 * the setup service with the session token, then — for two-factor accounts — the verification code and
 * `2sv/trust`, whose trust token lets the next sign-ins skip the code for about 90 days.
 *
 * Every call updates the session in place (cookies, scnt, session id/token, trust token). The password
 * is only ever an argument: it is used for these two requests and never stored or put in a message.
 */
import { ProviderError, type Challenge } from '../provider.ts';
import { checkWebAccess, cloudKitUrl, dsidOf, otherRegion, type AccountData } from './account.ts';
import { AppleHttp, jsonOf, type AppleAnswer } from './apple-http.ts';
import { parseCodeDelivery } from './code-delivery.ts';
import type { ICloudEndpoints } from './endpoints.ts';
import type { ICloudSession } from './session.ts';
import { APPLE_SRP, answerChallenge, bigFromBytes, bytesFromBig, passwordKey, startClient, type ApplePasswordProtocol } from './srp.ts';

/** The web sign-in widget's public key (the same for every browser: it names the client, it is not a secret). */
const WIDGET_KEY = 'd39ba9916b7251055b22c7f910e2ea796ee65e98b2ddecea8f5dde8d9d1a815d';

/** Statuses with which Apple refuses a session that is over (421 "misdirected", 450 and plain 401/403). */
const REFUSED = new Set([401, 403, 421, 450]);

const WRONG_CREDENTIALS = 'The Apple Account or password is not right. Check both and try again.';

export const CODE_FIELD = { name: 'code', label: 'Verification code', type: 'code', required: true, autocomplete: 'one-time-code', help_text: 'The 6-digit code Apple sent.' } as const;

export class AppleSignIn {
  constructor(
    private readonly session: ICloudSession,
    private readonly endpoints: ICloudEndpoints,
    readonly http: AppleHttp,
  ) {}

  private get authBase(): string {
    return this.endpoints.auth[this.session.domain];
  }

  private get setupBase(): string {
    return this.endpoints.setup[this.session.domain];
  }

  private get home(): string {
    return this.endpoints.home[this.session.domain];
  }

  private webHeaders(): Record<string, string> {
    return { Origin: this.home, Referer: `${this.home}/` };
  }

  private authHeaders(): Record<string, string> {
    const h: Record<string, string> = {
      ...this.webHeaders(),
      Accept: 'application/json, text/javascript',
      'X-Apple-OAuth-Client-Id': WIDGET_KEY,
      'X-Apple-OAuth-Client-Type': 'firstPartyAuth',
      'X-Apple-OAuth-Redirect-URI': this.home,
      'X-Apple-OAuth-Require-Grant-Code': 'true',
      'X-Apple-OAuth-Response-Mode': 'web_message',
      'X-Apple-OAuth-Response-Type': 'code',
      'X-Apple-OAuth-State': this.session.clientId,
      'X-Apple-Widget-Key': WIDGET_KEY,
    };
    if (this.session.auth.scnt) h.scnt = this.session.auth.scnt;
    if (this.session.auth.sessionId) h['X-Apple-ID-Session-Id'] = this.session.auth.sessionId;
    return h;
  }

  private trustTokens(): string[] {
    return this.session.auth.trustToken ? [this.session.auth.trustToken] : [];
  }

  private post(url: string, body: unknown, signal: AbortSignal, what: string): Promise<AppleAnswer> {
    return this.http.call(url, { method: 'POST', body, headers: this.authHeaders(), signal }, what);
  }

  /** Signs in with the password: SRP first, the older password sign-in when Apple refuses SRP's proof. */
  async withPassword(password: string, signal: AbortSignal): Promise<void> {
    const srp = await this.srp(password, signal);
    if (srp === 'refused') await this.rawPassword(password, signal);
    if (!this.session.auth.sessionToken) throw new ProviderError('protocol', 'Apple accepted the sign-in but gave no session token.');
  }

  private async srp(password: string, signal: AbortSignal): Promise<'ok' | 'refused'> {
    const accountName = this.session.appleId;
    const start = startClient(APPLE_SRP);
    const init = await this.post(
      `${this.authBase}/signin/init`,
      { a: bytesFromBig(start.A).toString('base64'), accountName, protocols: ['s2k', 's2k_fo'] },
      signal,
      "Apple's sign-in",
    );
    if (init.status === 400 || init.status === 401 || init.status === 403) throw new ProviderError('auth_failed', WRONG_CREDENTIALS);
    if (init.status !== 200) throw new ProviderError('protocol', `Apple's sign-in answered HTTP ${init.status} to the first step.`);
    const body = jsonOf(init);
    const protocol = body?.protocol;
    if (
      !body ||
      typeof body.salt !== 'string' ||
      typeof body.b !== 'string' ||
      typeof body.c !== 'string' ||
      typeof body.iteration !== 'number' ||
      (protocol !== 's2k' && protocol !== 's2k_fo')
    ) {
      throw new ProviderError('protocol', "Apple's sign-in challenge is not in the expected form.");
    }
    const salt = Buffer.from(body.salt, 'base64');
    const B = bigFromBytes(Buffer.from(body.b, 'base64'));
    const key = passwordKey(password, protocol as ApplePasswordProtocol, salt, body.iteration);
    const proofs = answerChallenge(APPLE_SRP, start, accountName, salt, B, key);
    if (!proofs) throw new ProviderError('protocol', "Apple's sign-in challenge is not valid.");
    const complete = await this.post(
      `${this.authBase}/signin/complete?isRememberMeEnabled=true`,
      { accountName, c: body.c, m1: proofs.m1.toString('base64'), m2: proofs.m2.toString('base64'), rememberMe: true, trustTokens: this.trustTokens() },
      signal,
      "Apple's sign-in",
    );
    return this.afterPasswordStep(complete.status, signal, 'srp');
  }

  /** The sign-in before SRP (icloudpd's fallback): the password goes to idmsa over TLS, as the old web page sent it. */
  private async rawPassword(password: string, signal: AbortSignal): Promise<void> {
    const answer = await this.post(
      `${this.authBase}/signin?isRememberMeEnabled=true`,
      { accountName: this.session.appleId, password, rememberMe: true, trustTokens: this.trustTokens() },
      signal,
      "Apple's sign-in",
    );
    // This endpoint may answer 200 and put the real outcome in X-Apple-I-Rscd.
    const rscd = Number(answer.headers.get('x-apple-i-rscd') ?? answer.status);
    if ((await this.afterPasswordStep(Number.isFinite(rscd) ? rscd : answer.status, signal, 'raw')) === 'refused') {
      throw new ProviderError('auth_failed', WRONG_CREDENTIALS);
    }
  }

  /** 2xx: signed in; 409: signed in, a code is needed; 412: Apple wants its terms "repaired" first. */
  private async afterPasswordStep(status: number, signal: AbortSignal, step: 'srp' | 'raw'): Promise<'ok' | 'refused'> {
    if ((status >= 200 && status < 300) || status === 409) return 'ok';
    if (status === 412) {
      const repair = await this.post(`${this.authBase}/repair/complete`, {}, signal, "Apple's sign-in");
      if (repair.status >= 400) throw new ProviderError('protocol', `Apple's sign-in answered HTTP ${repair.status} to the account repair step.`);
      return 'ok';
    }
    if (status === 401 || status === 403) return 'refused';
    throw new ProviderError('protocol', `Apple's sign-in answered HTTP ${status} (${step === 'srp' ? 'SRP' : 'password'} step).`);
  }

  /** accountLogin with the session token (and trust token): the web session, or null when Apple refuses it. */
  async accountLogin(signal: AbortSignal): Promise<AccountData | null> {
    if (!this.session.auth.sessionToken) return null;
    const answer = await this.http.call(
      `${this.setupBase}/accountLogin`,
      {
        method: 'POST',
        body: {
          accountCountryCode: this.session.auth.accountCountry ?? '',
          dsWebAuthToken: this.session.auth.sessionToken,
          extended_login: true,
          trustToken: this.session.auth.trustToken ?? '',
        },
        headers: this.webHeaders(),
        signal,
      },
      "iCloud's account service",
    );
    return this.account(answer);
  }

  /** Checks the stored web session (cookies) without signing in again: the account, or null when it is over. */
  async validate(signal: AbortSignal): Promise<AccountData | null> {
    const answer = await this.http.call(`${this.setupBase}/validate`, { method: 'POST', body: 'null', headers: this.webHeaders(), signal }, "iCloud's account service");
    return this.account(answer);
  }

  private account(answer: AppleAnswer): AccountData | null {
    if (REFUSED.has(answer.status)) return null;
    const data = jsonOf(answer);
    const region = data && otherRegion(data);
    if (region) {
      throw new ProviderError('bad_input', `Apple says this account is served by ${region}: choose the other region.`, false, { field: 'domain' });
    }
    if (answer.status >= 400 || !data || !data.dsInfo) {
      throw new ProviderError('protocol', `iCloud's account service answered HTTP ${answer.status} without the account.`);
    }
    checkWebAccess(data);
    const ck = this.endpoints.ckdatabasews ?? cloudKitUrl(data);
    if (!ck) throw new ProviderError('web_access_off', 'iCloud offers no photo service to the web for this account. Turn on "Access iCloud Data on the Web" in iCloud settings on an iPhone or iPad.');
    this.session.ckdatabasews = ck;
    const dsid = dsidOf(data);
    if (dsid) this.session.dsid = dsid;
    return data;
  }

  /**
   * Finds where the code goes and, when it must be asked for, asks: trusted devices get it pushed by the
   * sign-in itself; without one, an SMS to the first trusted number is requested.
   */
  async challenge(signal: AbortSignal): Promise<Challenge> {
    const page = await this.http.call(this.authBase, { method: 'GET', headers: { ...this.authHeaders(), Accept: 'text/html' }, signal }, "Apple's sign-in");
    // Without the page's options, the code goes where Apple's web sign-in sends it by default: the devices.
    const delivery = page.status === 200 ? parseCodeDelivery(page.text) : null;
    const phone = delivery?.phones[0];
    const params: Record<string, string> = {};
    if (!delivery || delivery.trustedDevices) {
      this.session.pending = { delivery: 'device' };
      params.delivery = 'device';
      if (phone) params.phone = phone.masked;
    } else if (phone) {
      const sent = await this.http.call(
        `${this.authBase}/verify/phone`,
        { method: 'PUT', body: { phoneNumber: { id: phone.id }, mode: 'sms' }, headers: this.authHeaders(), signal },
        "Apple's sign-in",
      );
      if (sent.status >= 400) throw new ProviderError('protocol', `Apple did not send the code by SMS (HTTP ${sent.status}).`);
      this.session.pending = { delivery: 'sms', phoneId: phone.id };
      params.delivery = 'sms';
      params.phone = phone.masked;
    } else {
      throw new ProviderError(
        'no_code_delivery',
        'Apple can send this account\'s verification codes only to a device this sign-in cannot use (no trusted phone number and no device that shows codes). Add a trusted phone number to the Apple Account, then try again.',
      );
    }
    return {
      type: 'verification_code',
      title: 'Enter the verification code',
      description:
        params.delivery === 'device'
          ? 'Apple sent a 6-digit code to your trusted Apple devices. Allow the sign-in there and enter the code.'
          : `Apple sent a 6-digit code by text message to ${params.phone}.`,
      params,
      fields: [{ ...CODE_FIELD }],
    };
  }

  /** Posts the code where it was sent, then asks Apple to trust this session (its trust token is kept). */
  async verifyCode(code: string, signal: AbortSignal): Promise<void> {
    const pending = this.session.pending ?? { delivery: 'device' };
    const answer =
      pending.delivery === 'sms' && pending.phoneId !== undefined
        ? await this.post(`${this.authBase}/verify/phone/securitycode`, { phoneNumber: { id: pending.phoneId }, securityCode: { code }, mode: 'sms' }, signal, "Apple's sign-in")
        : await this.post(`${this.authBase}/verify/trusteddevice/securitycode`, { securityCode: { code } }, signal, "Apple's sign-in");
    if (answer.status === 400 || answer.status === 401 || answer.status === 403 || answer.status === 412) {
      throw new ProviderError('auth_failed', 'The verification code is not right (or has expired): enter the latest code Apple sent.');
    }
    if (answer.status >= 300) throw new ProviderError('protocol', `Apple's sign-in answered HTTP ${answer.status} to the code.`);
    const trust = await this.http.call(`${this.authBase}/2sv/trust`, { method: 'GET', headers: this.authHeaders(), signal }, "Apple's sign-in");
    if (trust.status >= 300) throw new ProviderError('protocol', `Apple did not trust this session (HTTP ${trust.status}).`);
    delete this.session.pending;
  }
}

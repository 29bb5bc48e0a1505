/**
 * Where Apple sends the verification code, read from the sign-in page's boot arguments (the JSON in
 * `<script type="application/json" class="boot_args">` of GET …/appleauth/auth, as icloudpd reads the
 * trusted phone numbers). A trusted Apple device gets the code pushed as soon as the password is right;
 * without one the code must be asked for by SMS to a trusted number; with neither (an account whose
 * codes only reach, say, a passkey-only device) this flow cannot get a code at all.
 */

export interface TrustedPhone {
  id: number;
  /** As Apple masks it: "+1 (•••) •••-••81". */
  masked: string;
}

export interface CodeDelivery {
  trustedDevices: boolean;
  phones: TrustedPhone[];
}

const BOOT_ARGS = /<script\b(?=[^>]*\btype="application\/json")(?=[^>]*\bclass="boot_args")[^>]*>([\s\S]*?)<\/script>/i;

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The delivery options the page states, or null when it holds no boot arguments. */
export function parseCodeDelivery(html: string): CodeDelivery | null {
  const m = BOOT_ARGS.exec(html);
  if (!m?.[1]) return null;
  let args: unknown;
  try {
    args = JSON.parse(m[1]);
  } catch {
    return null;
  }
  const direct = record(record(args).direct);
  const twoSV = record(direct.twoSV);
  const numbers = record(twoSV.phoneNumberVerification).trustedPhoneNumbers;
  const phones: TrustedPhone[] = [];
  for (const n of Array.isArray(numbers) ? numbers : []) {
    const p = record(n);
    const masked = typeof p.numberWithDialCode === 'string' ? p.numberWithDialCode : typeof p.obfuscatedNumber === 'string' ? p.obfuscatedNumber : null;
    if (typeof p.id === 'number' && masked) phones.push({ id: p.id, masked });
  }
  return { trustedDevices: direct.hasTrustedDevices === true, phones };
}

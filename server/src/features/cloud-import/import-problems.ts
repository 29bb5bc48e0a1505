/**
 * How provider failures become problems: the HTTP answer of a credential operation (a DomainError, turned into
 * RFC 9457 by the app), and the problem kept on a credential, a run or a file of the run's report. One table, so a
 * failure reads the same wherever a person meets it. Messages come from the providers, which never put secrets in
 * them (adapters/cloud/provider.ts).
 */
import { DomainError } from '../../platform/http/errors.ts';
import { problemTitle } from '../../platform/http/problem.ts';
import { ProviderError, type ProviderErrorCode } from '../../adapters/cloud/provider.ts';

/** A problem as kept on a credential, a run or a report line (contract: problem object with `retryable`). */
export interface StoredProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  retryable: boolean;
}

/** HTTP status per provider failure: the person's input (422), the remote side (502/503), TLS (422: a choice to make). */
const STATUS: Record<ProviderErrorCode, number> = {
  auth_failed: 422,
  session_expired: 409,
  unreachable: 502,
  tls_untrusted: 422,
  redirect_refused: 502,
  protocol: 502,
  service_unavailable: 503,
  web_access_off: 409,
  no_code_delivery: 409,
  not_found: 404,
  bad_input: 422,
};

/** The problem code clients branch on: `cloud_<provider code>` (`cloud_auth_failed`, `cloud_unreachable`, …). */
export const cloudCode = (code: ProviderErrorCode) => `cloud_${code}`;

export function toDomainError(e: unknown): unknown {
  if (!(e instanceof ProviderError)) return e;
  const status = STATUS[e.code];
  const field = e.details.field;
  const fingerprint = e.code === 'tls_untrusted' ? e.details.fingerprint : undefined;
  return new DomainError(status, cloudCode(e.code), e.message, {
    retryable: e.retryable,
    ...(fingerprint ? { members: { fingerprint } } : {}),
    ...(field ? { errors: [{ field: `body.inputs.${field}`, message: e.message, code: cloudCode(e.code) }] } : {}),
  });
}

export function toStoredProblem(e: unknown): StoredProblem {
  const d = toDomainError(e);
  if (d instanceof DomainError) {
    return { type: `urn:hearth:problem:${d.code}`, title: problemTitle(d.status), status: d.status, detail: d.message, code: d.code, retryable: d.extra.retryable ?? d.status >= 500 };
  }
  return { type: 'urn:hearth:problem:import_failed', title: problemTitle(500), status: 500, detail: 'Something went wrong on this server while importing. Try again.', code: 'import_failed', retryable: true };
}

export function problem(code: string, status: number, detail: string, retryable = false): StoredProblem {
  return { type: `urn:hearth:problem:${code}`, title: problemTitle(status), status, detail, code, retryable };
}

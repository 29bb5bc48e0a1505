/**
 * Account → Security: two-step sign-in with an authenticator app (TOTP) and its recovery codes.
 *
 *   status ──Turn on──▶ confirm (password) ──▶ setup (QR, key, first code) ──▶ codes shown once ──▶ status
 *   status ──New recovery codes──▶ confirm (code or recovery code) ──▶ codes shown once ──▶ status
 *   status ──Turn off──▶ confirm (code or recovery code) ──▶ status
 *
 * Turning it on and making new codes sign out every other device; the server answers with a new
 * session for this one, which replaces the current session here.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useBrowserAuthCapabilities } from '../../../api/passkeys';
import { session } from '../../../api/session';
import { useMe } from '../../../api/use-me';
import { Button } from '../../../components/Button';
import { FormSuccess } from '../../../components/FormError';
import { LoadError } from '../../../components/LoadError';
import { formatDate } from '../../../lib/dates';
import { ConfirmItsYouForm } from './ConfirmItsYouForm';
import { RecoveryCodesShown } from './RecoveryCodesShown';
import {
  beginTotpSetup,
  disableTotp,
  getMfaStatus,
  mfaStatusKey,
  regenerateRecoveryCodes,
  type MfaStatus,
  type RecoveryCodesIssued,
  type SecurityAction,
  type TotpSetup,
} from './security-api';
import { PasskeysSection } from './PasskeysSection';
import { TotpEnrolment } from './TotpEnrolment';
import './security.css';

type View =
  | { kind: 'status'; done?: string }
  | { kind: 'confirm'; action: SecurityAction }
  | { kind: 'setup'; setup: TotpSetup }
  | { kind: 'codes'; issued: RecoveryCodesIssued; done: string };

export function SecuritySection() {
  const me = useMe();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: mfaStatusKey, queryFn: getMfaStatus });
  const caps = useBrowserAuthCapabilities();
  const [view, setView] = useState<View>({ kind: 'status' });

  const setStatus = (next: MfaStatus) => queryClient.setQueryData(mfaStatusKey, next);
  const issued = (result: RecoveryCodesIssued, done: string) => {
    session.signedIn(result.session);
    setStatus(result.status);
    setView({ kind: 'codes', issued: result, done });
  };

  const confirmed = async (action: SecurityAction, token: string) => {
    if (action === 'begin_totp_setup') setView({ kind: 'setup', setup: await beginTotpSetup(token) });
    else if (action === 'regenerate_recovery_codes') issued(await regenerateRecoveryCodes(token), 'New recovery codes are made; the old ones no longer work. Your other devices have been signed out.');
    else {
      setStatus(await disableTotp(token));
      setView({ kind: 'status', done: 'Two-step sign-in is off. Your recovery codes no longer work.' });
    }
  };

  const CONFIRM_LABELS: Record<SecurityAction, [string, string]> = {
    begin_totp_setup: ['Continue', 'Checking…'],
    regenerate_recovery_codes: ['Make new recovery codes', 'Making codes…'],
    disable_totp: ['Turn off two-step sign-in', 'Turning off…'],
    delete_passkey: ['Remove the passkey', 'Removing…'],
  };

  const body = () => {
    if (status.isError) return <LoadError error={status.error} onRetry={() => void status.refetch()} />;
    const s = status.data;
    if (!s || !me) return <p aria-busy="true">Loading…</p>;
    switch (view.kind) {
      case 'confirm': {
        const [label, busy] = CONFIRM_LABELS[view.action];
        return (
          <ConfirmItsYouForm
            action={view.action}
            hasSecondFactor={s.totp_enabled}
            canUsePasskey={s.passkey_count > 0 && caps.data?.passkey_available === true}
            submitLabel={label}
            busyLabel={busy}
            onConfirmed={(token) => confirmed(view.action, token)}
            onCancel={() => setView({ kind: 'status' })}
          />
        );
      }
      case 'setup':
        return (
          <TotpEnrolment
            setup={view.setup}
            onEnabled={(result) => issued(result, 'Two-step sign-in is on. Your other devices have been signed out.')}
            onCancel={() => setView({ kind: 'status' })}
          />
        );
      case 'codes':
        return (
          <>
            <FormSuccess message={view.done} />
            <RecoveryCodesShown
              codes={view.issued.recovery_codes}
              generatedAt={view.issued.generated_at}
              username={me.username}
              onDone={() => setView({ kind: 'status' })}
            />
          </>
        );
      default:
        return (
          <>
            <FormSuccess message={view.done ?? null} />
            {s.totp_enabled ? (
              <>
                <p className="security__state">
                  <strong>Two-step sign-in is on.</strong> Signing in asks for a code from your authenticator app after your password.
                </p>
                <p>
                  {s.recovery_codes_remaining === 1 ? '1 recovery code left' : `${s.recovery_codes_remaining} recovery codes left`}
                  {s.recovery_codes_generated_at ? ` (made ${formatDate(s.recovery_codes_generated_at)})` : ''}.
                  {s.recovery_codes_remaining <= 3 ? ' Make new ones before they run out.' : ''}
                </p>
                <div className="form__actions">
                  <Button variant="secondary" onClick={() => setView({ kind: 'confirm', action: 'regenerate_recovery_codes' })}>
                    New recovery codes
                  </Button>
                  <Button variant="danger" onClick={() => setView({ kind: 'confirm', action: 'disable_totp' })}>
                    Turn off
                  </Button>
                </div>
              </>
            ) : (
              <>
                <p className="security__state">
                  <strong>Two-step sign-in is off.</strong> Turn it on so that a stolen password alone cannot open your photos: signing in then also asks
                  for a code from an app on your phone.
                </p>
                <div className="form__actions">
                  <Button onClick={() => setView({ kind: 'confirm', action: 'begin_totp_setup' })}>Turn on two-step sign-in</Button>
                </div>
              </>
            )}
          </>
        );
    }
  };

  return (
    <>
      <section className="card" aria-labelledby="security-heading">
        <h2 className="card__title" id="security-heading">
          Two-step sign-in
        </h2>
        {body()}
      </section>
      {status.data && <PasskeysSection status={status.data} />}
    </>
  );
}

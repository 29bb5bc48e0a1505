/**
 * The second half of creating an account where the household asks for a second factor (staged
 * registration): the name and password were accepted (`stage_token`), and the account is made only once
 * an authenticator app or a passkey is set up. The new session is adopted after the recovery codes were
 * seen (an app), or at once (a passkey).
 */
import { useState, type FormEvent } from 'react';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { bareClient } from '../../api/bare-client';
import { cancelledMessage, passkeyUnavailableText, useBrowserAuthCapabilities } from '../../api/passkeys';
import { ApiError, messageOf, request } from '../../api/problem';
import { session } from '../../api/session';
import type { Session } from '../../api/types';
import { Button } from '../../components/Button';
import { CopyableSecret } from '../../components/CopyableSecret';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { RecoveryCodesShown, TotpQrImage, groupedKey } from '../account';

interface StagedSecondFactorProps {
  stageToken: string;
  username: string;
  /** The stage expired or was used: back to the first half, with why. */
  onRestart: (why: string) => void;
}

type TotpSetup = { qr_svg: string; secret: string; issuer: string; account_name: string };

export function StagedSecondFactor({ stageToken, username, onRestart }: StagedSecondFactorProps) {
  const caps = useBrowserAuthCapabilities();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const [done, setDone] = useState<{ session: Session; codes: string[]; generatedAt: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const fail = (e: unknown) => {
    if (e instanceof ApiError && e.code === 'stage_invalid') return onRestart(e.detail);
    setError(cancelledMessage(e) ?? messageOf(e));
  };

  const beginApp = useMutation({
    mutationFn: () => request(bareClient.POST('/api/v1/auth/register/staged/totp/setup', { body: { stage_token: stageToken } })),
    onSuccess: (s) => {
      setError(null);
      setSetup(s);
    },
    onError: fail,
  });
  const finishApp = useMutation({
    mutationFn: () => request(bareClient.POST('/api/v1/auth/register/staged/totp/complete', { body: { stage_token: stageToken, code: code.replace(/\s+/g, '') } })),
    onSuccess: (made) => setDone({ session: made.session, codes: made.recovery_codes, generatedAt: made.generated_at }),
    onError: (e) => {
      setCode('');
      fail(e);
    },
  });
  const passkey = useMutation({
    mutationFn: async () => {
      const begun = await request(bareClient.POST('/api/v1/auth/register/staged/passkey/begin', { body: { stage_token: stageToken } }));
      const credential = await startRegistration({ optionsJSON: begun.options as unknown as PublicKeyCredentialCreationOptionsJSON });
      return request(bareClient.POST('/api/v1/auth/register/staged/passkey/verify', { body: { challenge_token: begun.challenge_token, credential: credential as never } }));
    },
    onSuccess: (made) => session.signedIn(made.session),
    onError: fail,
  });

  if (done) {
    return <RecoveryCodesShown codes={done.codes} generatedAt={done.generatedAt} username={username} onDone={() => session.signedIn(done.session)} />;
  }

  if (setup) {
    const submit = (e: FormEvent) => {
      e.preventDefault();
      if (!code.trim()) return setError('Enter the code your authenticator app shows.');
      finishApp.mutate();
    };
    return (
      <form className="form" onSubmit={submit} noValidate aria-label="Set up the authenticator app">
        <FormError message={error} />
        <p>In an authenticator app on your phone, add an account and scan this code, or type the key below.</p>
        <TotpQrImage setup={setup} />
        <CopyableSecret label="Key" value={groupedKey(setup.secret)} />
        <TextField label="Code from your authenticator app" inputMode="numeric" autoComplete="one-time-code" maxLength={12} value={code} onChange={setCode} />
        <Button type="submit" busy={finishApp.isPending} busyLabel="Creating account…">
          Create account
        </Button>
      </form>
    );
  }

  const passkeyHere = caps.data?.passkey_available === true;
  return (
    <div className="form" role="group" aria-label="Choose a second factor">
      <FormError message={error} />
      <p>This household asks every account for a second way to prove it is you. Choose one; your account is created once it is set up.</p>
      <Button busy={beginApp.isPending} busyLabel="Preparing…" onClick={() => beginApp.mutate()}>
        Use an authenticator app
      </Button>
      {passkeyHere ? (
        <Button variant="secondary" busy={passkey.isPending} busyLabel="Waiting for the passkey…" onClick={() => passkey.mutate()}>
          Use a passkey
        </Button>
      ) : (
        caps.data && <p className="auth__aside">{passkeyUnavailableText(caps.data.passkey_unavailable_reason, caps.data.current_origin)}</p>
      )}
    </div>
  );
}

/**
 * One connected account: its name, provider and state, why it needs attention, a session about to end, and what can
 * be done with it. Reconnect first tries the stored sign-in; only when the provider no longer accepts it
 * (`cloud_session_expired`) does it ask for the password (the provider's password fields), and a provider that asks
 * for a code then continues in the challenge form. Remove asks first and says the photos stay.
 *
 * A session that ends soon (`session_expires_soon`: iCloud's, about 90 days after the code) is announced with its
 * date, and "Sign in again" asks for the password at once: the stored sign-in would still be accepted, but reusing it
 * keeps the same end, so only a new sign-in (password, then the provider's code) starts a new period.
 */
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError, FormSuccess } from '../../components/FormError';
import { formatDate } from '../../lib/dates';
import { ChallengeForm } from './ChallengeForm';
import { emptyValues, FieldInput, filledInputs } from './FieldInput';
import { useDisconnect, useReconnect, useRemoveCredential, type CloudChallenge, type CloudCredential, type CloudProvider } from './import-api';
import { codeOf, importProblemWords, inputErrors } from './problem-words';

const STATUS_WORDS: Record<CloudCredential['status'], string> = {
  connected: 'Connected',
  pending_challenge: 'Waiting for a code',
  disconnected: 'Disconnected',
  error: 'Needs attention',
};

interface AccountRowProps {
  credential: CloudCredential;
  provider: CloudProvider | undefined;
  /** The account is the signed-in member's (an administrator also sees the others', without actions). */
  own: boolean;
  importing: boolean;
  onImport: () => void;
}

/** `password`: the stored sign-in was refused (`refused`), or the member renews a session that ends soon (`renew`). */
type Step = { kind: 'idle' } | { kind: 'password'; why: 'refused' | 'renew' } | { kind: 'challenge'; challenge: CloudChallenge };

export function AccountRow({ credential: c, provider, own, importing, onImport }: AccountRowProps) {
  const reconnect = useReconnect();
  const disconnect = useDisconnect();
  const remove = useRemoveCredential();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const passwordFields = (provider?.form_fields ?? []).filter((f) => f.type === 'password');
  const [password, setPassword] = useState(() => emptyValues(passwordFields));

  const reconnected = (credential: CloudCredential) => {
    setStep({ kind: 'idle' });
    setPassword(emptyValues(passwordFields));
    setDone(`${credential.display_name} is connected again.`);
  };

  const tryReconnect = (inputs?: Record<string, string>) => {
    setDone(null);
    reconnect.mutate(
      { id: c.id, ...(inputs ? { inputs } : {}) },
      {
        onSuccess: (answer) => {
          if (answer.auth_status === 'challenge_required' && answer.challenge) setStep({ kind: 'challenge', challenge: answer.challenge });
          else reconnected(answer.credential);
        },
        onError: (e) => {
          if (codeOf(e) === 'cloud_session_expired' && passwordFields.length > 0) setStep({ kind: 'password', why: 'refused' });
        },
      },
    );
  };

  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    tryReconnect(filledInputs(passwordFields, password));
  };

  const where = [c.public_config.username, c.public_config.url].filter(Boolean).join(' at ');
  const endsSoon = c.session_expires_soon && c.session_expires_at !== null;
  const ended = endsSoon && Date.parse(c.session_expires_at!) <= Date.now();
  const renew = () => {
    setDone(null);
    if (passwordFields.length > 0) setStep({ kind: 'password', why: 'renew' });
    else tryReconnect();
  };
  const passwordLabel = step.kind === 'password' && step.why === 'renew' ? `Sign in again to ${c.display_name}` : `Reconnect ${c.display_name}`;
  const actionError = disconnect.error ?? (step.kind === 'idle' ? reconnect.error : null);

  return (
    <li className="account" aria-label={c.display_name}>
      <div className="account__head">
        <div className="account__who">
          <p className="account__name">
            <strong>{c.display_name}</strong>
            <span className={c.status === 'connected' ? 'badge' : 'badge badge--muted'}>{STATUS_WORDS[c.status]}</span>
          </p>
          <p className="account__meta">
            {c.provider_title}
            {where && ` · ${where}`}
            {!own && ' · another member’s account'}
          </p>
        </div>
      </div>

      {c.problem && c.status !== 'connected' && step.kind !== 'password' && <p className="account__problem">{c.problem.detail}</p>}
      {endsSoon && (
        <p className="notice notice--info" role="note">
          {ended
            ? `The sign-in to ${c.provider_title} ended on ${formatDate(c.session_expires_at)}. Sign in again to import from it.`
            : `Sign in again before ${formatDate(c.session_expires_at)}: the sign-in to ${c.provider_title} ends then, and imports from it stop until you do.`}
        </p>
      )}

      {own && step.kind === 'password' && (
        <form className="form import-form" onSubmit={submitPassword} aria-label={passwordLabel}>
          <p>
            {step.why === 'renew'
              ? 'Enter the password to start a new sign-in (a verification code may be asked for next).'
              : 'The stored sign-in is no longer accepted. Enter the password to connect again.'}
          </p>
          {/* The user name, for password managers to match the saved entry (not sent). */}
          {c.public_config.username && <input type="text" hidden readOnly autoComplete="username" value={c.public_config.username} />}
          {passwordFields.map((f, i) => (
            <FieldInput key={f.name} field={f} value={password[f.name] ?? ''} onChange={(v) => setPassword((s) => ({ ...s, [f.name]: v }))} error={inputErrors(reconnect.error)[f.name]} autoFocus={i === 0} />
          ))}
          <FormError message={reconnect.error && codeOf(reconnect.error) !== 'cloud_session_expired' ? importProblemWords(reconnect.error, c.provider) : null} />
          <div className="form__actions">
            <Button type="submit" busy={reconnect.isPending} busyLabel="Connecting…">
              {step.why === 'renew' ? 'Sign in' : 'Connect again'}
            </Button>
            <Button variant="quiet" onClick={() => setStep({ kind: 'idle' })} disabled={reconnect.isPending}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      {own && step.kind === 'challenge' && (
        <ChallengeForm credentialId={c.id} provider={c.provider} challenge={step.challenge} onConnected={reconnected} onCancel={() => setStep({ kind: 'idle' })} />
      )}

      <FormError message={actionError ? importProblemWords(actionError, c.provider) : null} />
      <FormSuccess message={done} />

      {own && step.kind === 'idle' && (
        <div className="button-row account__actions">
          {c.status === 'connected' && (
            <Button onClick={onImport} disabled={importing} aria-label={`Import from this account (${c.display_name})`}>
              Import from this account
            </Button>
          )}
          {c.status === 'connected' && endsSoon && (
            <Button variant="secondary" busy={reconnect.isPending} busyLabel="Connecting…" onClick={renew} aria-label={`Sign in again to ${c.display_name}`}>
              Sign in again
            </Button>
          )}
          {c.status !== 'connected' && (
            <Button variant="secondary" busy={reconnect.isPending} busyLabel="Connecting…" onClick={() => tryReconnect()} aria-label={`Reconnect ${c.display_name}`}>
              Reconnect
            </Button>
          )}
          {c.status !== 'disconnected' && (
            <Button
              variant="secondary"
              busy={disconnect.isPending}
              busyLabel="Disconnecting…"
              aria-label={`Disconnect ${c.display_name}`}
              onClick={() => {
                setDone(null);
                disconnect.mutate(c.id, { onSuccess: (r) => setDone(r.message) });
              }}
            >
              Disconnect
            </Button>
          )}
          <Button variant="quiet" onClick={() => setConfirmRemove(true)} aria-label={`Remove ${c.display_name}`}>
            Remove
          </Button>
        </div>
      )}

      {confirmRemove && (
        <ConfirmDialog
          title={`Remove ${c.display_name}?`}
          confirmLabel="Remove account"
          busyLabel="Removing…"
          busy={remove.isPending}
          error={remove.error ? importProblemWords(remove.error, c.provider) : null}
          onCancel={() => setConfirmRemove(false)}
          onConfirm={() => remove.mutate(c.id, { onSuccess: () => setConfirmRemove(false) })}
        >
          {/* Words for every provider: WebDAV keeps a password and folders, iCloud only a session and the whole library. */}
          Hearth forgets this account: what it keeps to sign in, and what it imports from it. Imports still running with it stop. The photos and videos it
          imported stay in your library, and nothing is changed where they came from.
        </ConfirmDialog>
      )}
    </li>
  );
}

/**
 * Who may create an account after the administrator: nobody (closed), or anyone with the invite
 * code. The code is write-only on the server, so Hearth can say that one is set but not show it;
 * the code the administrator just typed or generated is shown back once, to pass on.
 */
import { useState, type FormEvent } from 'react';
import { messageOf } from '../../api/problem';
import type { SystemSettings } from '../../api/types';
import { Button } from '../../components/Button';
import { CopyableSecret } from '../../components/CopyableSecret';
import { FormError, FormSuccess } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks, NO_FEEDBACK, type FormFeedback } from '../../lib/form-feedback';
import { randomInviteCode } from '../../lib/random-code';
import { useSystemSettings, useUpdateSystemSettings } from './admin-api';

type Mode = SystemSettings['registration']['mode'];

export function RegistrationPanel() {
  const settings = useSystemSettings();
  return (
    <section className="card" aria-labelledby="registration-heading">
      <h2 className="card__title" id="registration-heading">
        Registration
      </h2>
      {settings.isPending && <p role="status">Loading settings…</p>}
      {settings.isError && (
        <div className="notice notice--error" role="alert">
          {messageOf(settings.error)}
        </div>
      )}
      {settings.data && <RegistrationForm registration={settings.data.registration} />}
    </section>
  );
}

function RegistrationForm({ registration }: { registration: SystemSettings['registration'] }) {
  const update = useUpdateSystemSettings();
  const [mode, setMode] = useState<Mode>(registration.mode);
  const [code, setCode] = useState('');
  const [secondFactor, setSecondFactor] = useState(registration.require_second_factor);
  const [feedback, setFeedback] = useState<FormFeedback>(NO_FEEDBACK);
  const [result, setResult] = useState<{ message: string; shareCode: string | null } | null>(null);
  const configured = registration.invite_code_configured;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    const typed = code.trim();
    if (mode === 'invite_code' && !configured && !typed) {
      setFeedback(feedbackFromChecks({ code: 'Type an invite code or generate one.' }));
      return;
    }
    setFeedback(NO_FEEDBACK);
    update.mutate(
      { registration: { mode, require_second_factor: secondFactor, ...(mode === 'invite_code' && typed ? { invite_code: typed } : {}) } },
      {
        onSuccess: () => {
          setCode('');
          setResult({
            message:
              (mode === 'closed' ? 'Registration is closed.' : 'Registration with an invite code is open.') +
              (secondFactor ? ' New accounts need an authenticator app or a passkey.' : ''),
            shareCode: mode === 'invite_code' && typed ? typed : null,
          });
        },
        onError: (error) => setFeedback(feedbackFrom(error, { 'registration.invite_code': 'code' })),
      },
    );
  };

  const removeCode = () => {
    setResult(null);
    update.mutate(
      { registration: { mode: 'closed', invite_code: null } },
      {
        onSuccess: () => {
          setMode('closed');
          setResult({ message: 'The invite code is removed and registration is closed.', shareCode: null });
        },
        onError: (error) => setFeedback(feedbackFrom(error, {})),
      },
    );
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      <FormError message={feedback.summary} />
      <fieldset className="choice-group">
        <legend>Who can create an account</legend>
        <label className="choice">
          <input type="radio" name="registration-mode" value="closed" checked={mode === 'closed'} onChange={() => setMode('closed')} />
          <span>
            <strong>Nobody</strong> (closed)
          </span>
        </label>
        <label className="choice">
          <input
            type="radio"
            name="registration-mode"
            value="invite_code"
            checked={mode === 'invite_code'}
            onChange={() => setMode('invite_code')}
          />
          <span>
            <strong>People with the invite code</strong> (share it with your household)
          </span>
        </label>
      </fieldset>

      <label className="choice">
        <input type="checkbox" checked={secondFactor} onChange={(e) => setSecondFactor(e.target.checked)} />
        <span>
          <strong>New accounts need a second factor</strong> (an authenticator app or a passkey, set up while creating the account; invite links too)
        </span>
      </label>

      {mode === 'invite_code' && (
        <div className="invite-code">
          <TextField
            label={configured ? 'New invite code' : 'Invite code'}
            hint={
              configured
                ? 'An invite code is set. Type a new one to replace it, or leave this empty to keep the current one.'
                : 'No invite code is set yet. Type one, or generate one.'
            }
            value={code}
            onChange={(v) => {
              setCode(v);
              if (feedback.fields.code) setFeedback(NO_FEEDBACK);
            }}
            error={feedback.fields.code}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={500}
          />
          <div className="button-row">
            <Button variant="secondary" onClick={() => setCode(randomInviteCode())}>
              Generate code
            </Button>
            {configured && (
              <Button variant="quiet" onClick={removeCode} disabled={update.isPending}>
                Remove invite code
              </Button>
            )}
          </div>
        </div>
      )}

      <FormSuccess message={result?.message} />
      {result?.shareCode && (
        <div className="reset-result">
          <CopyableSecret label="Invite code to share" value={result.shareCode} />
          <p className="field__hint">Hearth does not show the code again; you can always set a new one.</p>
        </div>
      )}

      <div className="form__actions">
        <Button type="submit" busy={update.isPending} busyLabel="Saving…">
          Save registration settings
        </Button>
      </div>
    </form>
  );
}

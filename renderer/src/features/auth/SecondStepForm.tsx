/**
 * The second step of a sign-in for an account with two-step sign-in on: the password was right and
 * the server answered with a challenge (`mfa_token`, five minutes, used once) instead of a session.
 * The person types the code their authenticator app shows, or one of their recovery codes.
 *
 * An expired or already used challenge sends the person back to the password (the server's
 * `mfa_token_invalid`); too many wrong codes answer 429 with the wait in words.
 */
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { cancelledMessage, signInWithPasskey, useBrowserAuthCapabilities } from '../../api/passkeys';
import { ApiError, messageOf } from '../../api/problem';
import type { Session } from '../../api/types';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks } from '../../lib/form-feedback';
import { useForm } from '../../lib/use-form';
import { checkRequired, onlyProblems } from '../../lib/validation';
import { verifyMfa } from './auth-api';

export interface MfaChallenge {
  token: string;
  /** What the second step accepts: `totp`, `recovery_code`, `passkey`. */
  methods: string[];
}

interface SecondStepFormProps {
  challenge: MfaChallenge;
  /** The session, or a password change the administrator asked for. */
  onSignedIn: (result: Session) => void;
  /** Back to the password: cancelled, or the challenge expired (with why). */
  onRestart: (notice: string | null) => void;
}

export function SecondStepForm({ challenge, onSignedIn, onRestart }: SecondStepFormProps) {
  const [useRecovery, setUseRecovery] = useState(false);
  const form = useForm({ code: '', recovery: '' });
  const { values } = form;
  const field = useRecovery ? 'recovery' : 'code';

  const caps = useBrowserAuthCapabilities();
  const passkey = useMutation({
    mutationFn: () => signInWithPasskey({ mfa_token: challenge.token }),
    onSuccess: onSignedIn,
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'mfa_token_invalid') return onRestart(error.detail);
      form.setFeedback({ summary: cancelledMessage(error) ?? messageOf(error), fields: {} });
    },
  });

  const mutation = useMutation({
    mutationFn: verifyMfa,
    onSuccess: onSignedIn,
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'mfa_token_invalid') {
        onRestart(error.detail);
        return;
      }
      form.setValues((v) => ({ ...v, [field]: '' }));
      const feedback = feedbackFrom(error, { code: 'code', recovery_code: 'recovery' });
      if (error instanceof ApiError && (error.code === 'mfa_code_invalid' || error.code === 'mfa_code_reused')) {
        feedback.fields[field] = error.detail;
      }
      form.setFeedback(feedback);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = onlyProblems({
      [field]: checkRequired(values[field], useRecovery ? 'Enter one of your recovery codes.' : 'Enter the code from your authenticator app.'),
    });
    form.setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    mutation.mutate(
      useRecovery
        ? { mfa_token: challenge.token, recovery_code: values.recovery.trim() }
        : { mfa_token: challenge.token, code: values.code.replace(/\s+/g, '') },
    );
  };

  const switchTo = (recovery: boolean) => {
    setUseRecovery(recovery);
    form.setFeedback(feedbackFromChecks({}));
  };

  return (
    <form ref={form.formRef} className="form" onSubmit={submit} noValidate aria-label="Two-step sign-in">
      <FormError message={form.feedback.summary} />
      {useRecovery ? (
        <TextField
          key="recovery"
          label="Recovery code"
          hint="One of the codes you saved when you turned on two-step sign-in. Each works once."
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          {...form.field('recovery')}
        />
      ) : (
        <TextField
          key="code"
          label="Code from your authenticator app"
          hint="The 6 digits it shows for Hearth now."
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
          autoFocus
          {...form.field('code')}
        />
      )}
      <Button type="submit" busy={mutation.isPending} busyLabel="Checking…">
        Verify
      </Button>
      {challenge.methods.includes('passkey') && caps.data?.passkey_available && (
        <Button variant="secondary" busy={passkey.isPending} busyLabel="Waiting for the passkey…" onClick={() => passkey.mutate()}>
          Use a passkey instead
        </Button>
      )}
      <div className="form__actions">
        {/* Always offered: whether codes remain is not told before the second step is passed. */}
        <Button variant="quiet" onClick={() => switchTo(!useRecovery)}>
          {useRecovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}
        </Button>
        <Button variant="quiet" onClick={() => onRestart(null)}>
          Back to password
        </Button>
      </div>
    </form>
  );
}

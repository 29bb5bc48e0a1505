/**
 * "Confirm it is you" before a sensitive change (verifyRecentSecurity): with two-step sign-in on, a
 * code from the authenticator app or a recovery code; without it, the password. Answers a one-time
 * `security_token` for that one action, which the caller spends at once.
 */
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../api/problem';
import { Button } from '../../../components/Button';
import { FormError } from '../../../components/FormError';
import { TextField } from '../../../components/TextField';
import { feedbackFrom, feedbackFromChecks } from '../../../lib/form-feedback';
import { useForm } from '../../../lib/use-form';
import { checkRequired, onlyProblems } from '../../../lib/validation';
import { cancelledMessage, passkeyProofAnswer } from '../../../api/passkeys';
import { verifyRecentSecurity, type Proof, type SecurityAction } from './security-api';

interface ConfirmItsYouFormProps {
  action: SecurityAction;
  /** Whether the account has two-step sign-in (then the password is not enough). */
  hasSecondFactor: boolean;
  /** Whether a passkey of the account can be used at this address (offered as one more way). */
  canUsePasskey?: boolean;
  /** What the confirmed change does, on its button ("Turn off two-step sign-in"). */
  submitLabel: string;
  busyLabel: string;
  /** Spends the token; a failure is shown on this form. */
  onConfirmed: (securityToken: string) => Promise<unknown>;
  onCancel: () => void;
}

type Way = 'code' | 'recovery' | 'password';

export function ConfirmItsYouForm({ action, hasSecondFactor, canUsePasskey = false, submitLabel, busyLabel, onConfirmed, onCancel }: ConfirmItsYouFormProps) {
  const [way, setWay] = useState<Way>(hasSecondFactor ? 'code' : 'password');
  const form = useForm({ code: '', recovery: '', password: '' });
  const { values } = form;

  const mutation = useMutation({
    mutationFn: async (proof: Proof | 'passkey') =>
      onConfirmed((await verifyRecentSecurity(action, proof === 'passkey' ? { passkey: await passkeyProofAnswer() } : proof)).security_token),
    onError: (error) => {
      const cancelled = cancelledMessage(error);
      if (cancelled) return form.setFeedback({ summary: cancelled, fields: {} });
      form.setValues((v) => ({ ...v, [way]: '' }));
      const feedback = feedbackFrom(error, {});
      if (error instanceof ApiError && ['mfa_code_invalid', 'mfa_code_reused', 'wrong_password'].includes(error.code)) {
        feedback.fields[way] = error.detail;
        feedback.summary = null;
      }
      form.setFeedback(feedback);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = { code: 'Enter the code from your authenticator app.', recovery: 'Enter one of your recovery codes.', password: 'Enter your password.' }[way];
    const problems = onlyProblems({ [way]: checkRequired(values[way], missing) });
    form.setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    mutation.mutate(
      way === 'code' ? { code: values.code.replace(/\s+/g, '') } : way === 'recovery' ? { recovery_code: values.recovery.trim() } : { password: values.password },
    );
  };

  return (
    <form ref={form.formRef} className="form" onSubmit={submit} noValidate aria-label="Confirm it is you">
      <p>Confirm it is you first.</p>
      <FormError message={form.feedback.summary} />
      {way === 'password' && <TextField key="password" label="Your password" type="password" autoComplete="current-password" autoFocus {...form.field('password')} />}
      {way === 'code' && (
        <TextField
          key="code"
          label="Code from your authenticator app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
          autoFocus
          {...form.field('code')}
        />
      )}
      {way === 'recovery' && (
        <TextField key="recovery" label="Recovery code" autoComplete="off" autoCapitalize="none" spellCheck={false} autoFocus {...form.field('recovery')} />
      )}
      <div className="form__actions">
        <Button type="submit" busy={mutation.isPending} busyLabel={busyLabel}>
          {submitLabel}
        </Button>
        {hasSecondFactor && (
          <Button
            variant="quiet"
            onClick={() => {
              setWay(way === 'code' ? 'recovery' : 'code');
              form.setFeedback(feedbackFromChecks({}));
            }}
          >
            {way === 'code' ? 'Use a recovery code instead' : 'Use a code from the app instead'}
          </Button>
        )}
        {canUsePasskey && (
          <Button variant="secondary" busy={mutation.isPending} onClick={() => mutation.mutate('passkey')}>
            Use a passkey
          </Button>
        )}
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

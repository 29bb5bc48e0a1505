/**
 * Setting up the authenticator app: scan the QR code (drawn by the home server from the otpauth URI)
 * or type the key, then type the first code the app shows. The setup lasts ten minutes; an expired
 * one asks to start again.
 */
import type { FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../api/problem';
import { Button } from '../../../components/Button';
import { CopyableSecret } from '../../../components/CopyableSecret';
import { FormError } from '../../../components/FormError';
import { TextField } from '../../../components/TextField';
import { feedbackFrom, feedbackFromChecks } from '../../../lib/form-feedback';
import { useForm } from '../../../lib/use-form';
import { checkRequired, onlyProblems } from '../../../lib/validation';
import { TotpQrImage, groupedKey } from './TotpQrImage';
import { enableTotp, type RecoveryCodesIssued, type TotpSetup } from './security-api';

interface TotpEnrolmentProps {
  setup: TotpSetup;
  onEnabled: (result: RecoveryCodesIssued) => void;
  onCancel: () => void;
}


export function TotpEnrolment({ setup, onEnabled, onCancel }: TotpEnrolmentProps) {
  const form = useForm({ code: '' });
  const mutation = useMutation({
    mutationFn: (code: string) => enableTotp(setup.setup_token, code),
    onSuccess: onEnabled,
    onError: (error) => {
      form.setValues({ code: '' });
      const feedback = feedbackFrom(error, { code: 'code' });
      if (error instanceof ApiError && error.code === 'mfa_code_invalid') {
        feedback.fields.code = `${error.detail} Check that the device's clock is right.`;
        feedback.summary = null;
      }
      form.setFeedback(feedback);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = onlyProblems({ code: checkRequired(form.values.code, 'Enter the code your authenticator app shows.') });
    form.setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    mutation.mutate(form.values.code.replace(/\s+/g, ''));
  };

  return (
    <div className="totp-setup">
      <ol className="totp-setup__steps">
        <li>
          In an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Aegis, …), add an account and scan this code.
          <TotpQrImage setup={setup} className="qr-code totp-setup__qr" />
        </li>
        <li>
          Cannot scan it (this is the phone)? Type this key in the app instead, as a time-based key:
          <CopyableSecret label="Key" value={groupedKey(setup.secret)} />
        </li>
        <li>Type the 6-digit code the app now shows for Hearth.</li>
      </ol>
      <form ref={form.formRef} className="form" onSubmit={submit} noValidate aria-label="Finish two-step sign-in">
        <FormError message={form.feedback.summary} />
        <TextField label="Code from your authenticator app" inputMode="numeric" autoComplete="one-time-code" maxLength={12} {...form.field('code')} />
        <div className="form__actions">
          <Button type="submit" busy={mutation.isPending} busyLabel="Turning on…">
            Turn on
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}

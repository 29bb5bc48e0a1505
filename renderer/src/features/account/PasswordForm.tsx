/**
 * Changing one's own password. The server ends every session of the account and answers with a new
 * one for this device, which replaces the current session here (and, through the shared cookie, in
 * this browser's other tabs).
 */
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ApiError, request } from '../../api/problem';
import { session } from '../../api/session';
import { Button } from '../../components/Button';
import { FormError, FormSuccess } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks } from '../../lib/form-feedback';
import { useForm } from '../../lib/use-form';
import { checkConfirmation, checkNewPassword, checkRequired, onlyProblems, PASSWORD_HINT } from '../../lib/validation';

const EMPTY = { current: '', password: '', confirm: '' };
const SERVER_FIELDS = { current_password: 'current', new_password: 'password' };

export function PasswordForm() {
  const form = useForm(EMPTY);
  const { values } = form;
  const [changed, setChanged] = useState(false);

  const mutation = useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) =>
      request(api.PUT('/api/v1/users/me/password', { body })),
    onSuccess: (next) => {
      session.signedIn(next);
      form.setValues(EMPTY);
      setChanged(true);
    },
    onError: (error) => {
      const feedback = feedbackFrom(error, SERVER_FIELDS);
      if (error instanceof ApiError && error.code === 'wrong_password') feedback.fields.current = error.detail;
      form.setFeedback(feedback);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChanged(false);
    const problems = onlyProblems({
      current: checkRequired(values.current, 'Enter your current password.'),
      password: checkNewPassword(values.password),
      confirm: checkConfirmation(values.password, values.confirm),
    });
    form.setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    mutation.mutate({ current_password: values.current, new_password: values.password });
  };

  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 className="card__title" id="password-heading">
        Password
      </h2>
      <p className="card__intro">Changing your password signs you out everywhere else; you stay signed in here.</p>
      <form ref={form.formRef} className="form" onSubmit={submit} noValidate>
        <FormError message={form.feedback.summary} />
        <FormSuccess message={changed ? 'Your password is changed. Your other devices have been signed out.' : null} />
        <TextField label="Current password" type="password" autoComplete="current-password" {...form.field('current')} />
        <TextField label="New password" type="password" hint={PASSWORD_HINT} autoComplete="new-password" {...form.field('password')} />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" {...form.field('confirm')} />
        <div className="form__actions">
          <Button type="submit" busy={mutation.isPending} busyLabel="Changing password…">
            Change password
          </Button>
        </div>
      </form>
    </section>
  );
}

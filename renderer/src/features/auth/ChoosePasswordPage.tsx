/**
 * Signing in with a password the administrator gave leads here: the first password of an account the
 * administrator created (a new member is welcomed), or the temporary one of an access reset (the
 * member is told why). The person picks their own password and is signed in with it. The change token lasts ten minutes and lives only in
 * memory, so after a reload they sign in with the temporary password again.
 */
import type { FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError } from '../../api/problem';
import { session } from '../../api/session';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks } from '../../lib/form-feedback';
import { useForm } from '../../lib/use-form';
import { checkConfirmation, checkNewPassword, onlyProblems, PASSWORD_HINT } from '../../lib/validation';
import { completePasswordChange } from './auth-api';
import { AuthLayout } from './AuthLayout';
import { passwordChangeTicket } from './password-change-ticket';

const SERVER_FIELDS = { new_password: 'password' };

export function ChoosePasswordPage() {
  const ticket = passwordChangeTicket.get();
  const form = useForm({ password: '', confirm: '' });
  const { values } = form;

  const mutation = useMutation({
    mutationFn: completePasswordChange,
    onSuccess: (created) => {
      passwordChangeTicket.clear();
      session.signedIn(created);
    },
    onError: (error) => form.setFeedback(feedbackFrom(error, SERVER_FIELDS)),
  });

  if (!ticket) {
    return (
      <AuthLayout title="Choose a new password">
        <div className="notice notice--info" role="status">
          To choose a new password, first sign in with the password your administrator gave you.
        </div>
        <p className="auth__aside">
          <Link to="/sign-in">Go to sign in</Link>
        </p>
      </AuthLayout>
    );
  }

  const expired = mutation.error instanceof ApiError && mutation.error.code === 'password_change_token_invalid';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = onlyProblems({
      password: checkNewPassword(values.password),
      confirm: checkConfirmation(values.password, values.confirm),
    });
    form.setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    mutation.mutate({ password_change_token: ticket.token, new_password: values.password });
  };

  return (
    <AuthLayout
      title="Choose a new password"
      intro={
        ticket.reason === 'first_password' ? (
          <p>
            Welcome to Hearth, {ticket.user.display_name}. Choose your own password to finish setting up your account. It replaces the
            first password your administrator gave you.
          </p>
        ) : (
          <p>
            Hello {ticket.user.display_name}. Your administrator reset your access; choose a new password to continue. It replaces
            the temporary one.
          </p>
        )
      }
    >
      <form ref={form.formRef} className="form" onSubmit={submit} noValidate aria-label="Choose a new password">
        <FormError message={form.feedback.summary} />
        {/* A hidden user name lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={ticket.user.username} readOnly hidden />
        <TextField label="New password" type="password" hint={PASSWORD_HINT} autoComplete="new-password" {...form.field('password')} />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" {...form.field('confirm')} />
        <Button type="submit" busy={mutation.isPending} busyLabel="Saving…" disabled={expired}>
          Save password and sign in
        </Button>
      </form>
      {expired && (
        <p className="auth__aside">
          <Link to="/sign-in">Sign in again</Link> with the password your administrator gave you.
        </p>
      )}
    </AuthLayout>
  );
}

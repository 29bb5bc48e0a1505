/**
 * Sign-in. A password reset by the administrator answers with a password change token instead of a
 * session; the person then continues on "Choose a new password". An account with two-step sign-in
 * answers with a challenge: the page goes on to its second step (SecondStepForm.tsx) for a code.
 */
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { session } from '../../api/session';
import { useSession } from '../../api/use-session';
import { Button } from '../../components/Button';
import { PasskeyInBrowser } from '../../components/PasskeyInBrowser';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks } from '../../lib/form-feedback';
import { useForm } from '../../lib/use-form';
import { checkRequired, onlyProblems } from '../../lib/validation';
import { cancelledMessage, passkeyUnavailableText, signInWithPasskey, useBrowserAuthCapabilities } from '../../api/passkeys';
import { messageOf } from '../../api/problem';
import { login } from './auth-api';
import { AuthLayout } from './AuthLayout';
import { passwordChangeTicket } from './password-change-ticket';
import { SecondStepForm, type MfaChallenge } from './SecondStepForm';
import type { Session } from '../../api/types';

const SERVER_FIELDS = { username: 'username', password: 'password' };

export function SignInPage() {
  const navigate = useNavigate();
  const { notice } = useSession();
  const form = useForm({ username: '', password: '' });
  const { values } = form;
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const [restartNotice, setRestartNotice] = useState<string | null>(null);

  const signedIn = (result: Session) => {
    if (result.requires_password_change && result.password_change_token) {
      passwordChangeTicket.set({ token: result.password_change_token, user: result.user, reason: result.password_change_reason ?? 'access_reset' });
      void navigate('/choose-password');
      return;
    }
    session.signedIn(result);
  };

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (result) => {
      if (result.requires_mfa && result.mfa_token) {
        form.setValues((v) => ({ ...v, password: '' }));
        setRestartNotice(null);
        setChallenge({ token: result.mfa_token, methods: result.mfa_methods });
        return;
      }
      signedIn(result);
    },
    onError: (error) => {
      form.setValues((v) => ({ ...v, password: '' }));
      form.setFeedback(feedbackFrom(error, SERVER_FIELDS));
    },
  });

  const caps = useBrowserAuthCapabilities();
  const passkey = useMutation({
    mutationFn: () => signInWithPasskey(values.username.trim() ? { username: values.username.trim() } : {}),
    onSuccess: signedIn,
    onError: (error) => form.setFeedback({ summary: cancelledMessage(error) ?? messageOf(error), fields: {} }),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = onlyProblems({
      username: checkRequired(values.username, 'Enter your user name.'),
      password: checkRequired(values.password, 'Enter your password.'),
    });
    form.setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    mutation.mutate({ username: values.username.trim(), password: values.password });
  };

  if (challenge) {
    return (
      <AuthLayout title="Two-step sign-in" intro={<p>Your password was right. Now confirm it is you with your authenticator app.</p>}>
        <SecondStepForm
          challenge={challenge}
          onSignedIn={signedIn}
          onRestart={(why) => {
            setChallenge(null);
            setRestartNotice(why);
          }}
        />
      </AuthLayout>
    );
  }

  const shownNotice = restartNotice ?? notice;
  return (
    <AuthLayout title="Sign in" intro={<p>Sign in to see your photos and videos.</p>}>
      {shownNotice && !form.feedback.summary && (
        <div className="notice notice--info" role="status">
          {shownNotice}
        </div>
      )}
      <form ref={form.formRef} className="form" onSubmit={submit} noValidate aria-label="Sign in">
        <FormError message={form.feedback.summary} />
        <TextField label="User name" autoComplete="username" autoCapitalize="none" spellCheck={false} {...form.field('username')} />
        <TextField label="Password" type="password" autoComplete="current-password" {...form.field('password')} />
        <Button type="submit" busy={mutation.isPending} busyLabel="Signing in…">
          Sign in
        </Button>
        {caps.data?.passkey_available && (
          <Button variant="secondary" busy={passkey.isPending} busyLabel="Waiting for the passkey…" onClick={() => passkey.mutate()}>
            Sign in with a passkey
          </Button>
        )}
      </form>
      {caps.data && !caps.data.passkey_available && (
        <>
          <p className="auth__aside" role="note">
            {passkeyUnavailableText(caps.data.passkey_unavailable_reason, caps.data.current_origin)}
          </p>
          <PasskeyInBrowser doing="sign in with a passkey" />
        </>
      )}
      <p className="auth__aside">
        New here? <Link to="/create-account">Create an account</Link> with the invite code from your administrator.
      </p>
      <p className="auth__aside">Forgot your password? Ask the administrator to reset your access.</p>
    </AuthLayout>
  );
}

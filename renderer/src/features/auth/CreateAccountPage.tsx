/**
 * Creating an account after the first: it takes the invite code the administrator set, or the code
 * of an invite link (`/join?invite=…` fills it in; such a link works even with registration closed).
 * With registration closed and no invite in the address, the page says so and who can change that,
 * instead of a form bound to fail.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import { session } from '../../api/session';
import type { BootstrapStatus } from '../../api/types';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks } from '../../lib/form-feedback';
import { useForm } from '../../lib/use-form';
import { checkRequired, onlyProblems } from '../../lib/validation';
import { NewAccountFields, newAccountBody, newAccountChecks } from './new-account';
import { register, startStagedRegistration } from './auth-api';
import { StagedSecondFactor } from './StagedSecondFactor';
import { AuthLayout } from './AuthLayout';

const SERVER_FIELDS = { username: 'username', password: 'password', display_name: 'displayName', invite_code: 'inviteCode' };

export function CreateAccountPage({ status }: { status: BootstrapStatus }) {
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const invited = params.get('invite')?.trim() ?? '';
  const form = useForm({ inviteCode: invited, username: '', displayName: '', password: '', confirm: '' });
  const { values } = form;

  const [stage, setStage] = useState<{ token: string; username: string } | null>(null);
  const [stageNotice, setStageNotice] = useState<string | null>(null);

  const mutation = useMutation({
    // With the household's setting on, the account is made only with its second factor (StagedSecondFactor.tsx).
    mutationFn: async (body: Parameters<typeof register>[0]) =>
      status.second_factor_required
        ? { kind: 'staged' as const, stage: await startStagedRegistration(body), username: body.username }
        : { kind: 'created' as const, session: await register(body) },
    onSuccess: (result) => {
      if (result.kind === 'staged') {
        setStageNotice(null);
        setStage({ token: result.stage.stage_token, username: result.username });
        return;
      }
      // Signed in, the sign-up address (/join?invite=…, /create-account) means nothing: start at Photos.
      void navigate('/', { replace: true });
      session.signedIn(result.session);
    },
    onError: (error) => {
      const feedback = feedbackFrom(error, SERVER_FIELDS);
      if (error instanceof ApiError && (error.code === 'invite_code_invalid' || error.code === 'invite_expired')) feedback.fields.inviteCode = error.detail;
      if (error instanceof ApiError && error.code === 'username_taken') feedback.fields.username = error.detail;
      // Closed since the page loaded: show the closed page.
      if (error instanceof ApiError && error.code === 'registration_closed') void queryClient.invalidateQueries({ queryKey: queryKeys.bootstrap });
      form.setFeedback(feedback);
    },
  });

  if (!status.registration_open && !invited) {
    return (
      <AuthLayout title="Create an account">
        <div className="notice notice--info" role="status">
          Registration is closed. Ask the administrator of this Hearth to open it and give you an invite code.
        </div>
        <p className="auth__aside">
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </p>
      </AuthLayout>
    );
  }

  if (stage) {
    return (
      <AuthLayout title="Set up your second factor" intro={<p>Almost there, {stage.username}.</p>}>
        <StagedSecondFactor
          stageToken={stage.token}
          username={stage.username}
          onRestart={(why) => {
            setStage(null);
            setStageNotice(why);
          }}
        />
      </AuthLayout>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = onlyProblems({
      inviteCode: checkRequired(values.inviteCode, 'Enter the invite code from your administrator.'),
      ...newAccountChecks(values),
    });
    form.setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    mutation.mutate({
      ...newAccountBody(values),
      invite_code: values.inviteCode.trim(),
    });
  };

  return (
    <AuthLayout
      title="Create an account"
      intro={<p>{invited ? 'You were invited to this Hearth: choose your user name and password.' : 'Your administrator gives you the invite code.'}</p>}
    >
      <form ref={form.formRef} className="form" onSubmit={submit} noValidate aria-label="Create an account">
        <FormError message={form.feedback.summary ?? stageNotice} />
        <TextField label="Invite code" autoComplete="off" autoCapitalize="none" spellCheck={false} {...form.field('inviteCode')} />
        <NewAccountFields field={form.field} />
        <Button type="submit" busy={mutation.isPending} busyLabel="Creating account…">
          Create account
        </Button>
      </form>
      <p className="auth__aside">
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </AuthLayout>
  );
}

/**
 * First run: nobody has an account yet, so the first one becomes the administrator. From another
 * device the server also wants the one-time setup code it printed when it started, so a stranger on
 * the network cannot claim a fresh install.
 */
import type { FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/problem';
import { session } from '../../api/session';
import { queryKeys } from '../../api/query-keys';
import type { BootstrapStatus } from '../../api/types';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks } from '../../lib/form-feedback';
import { useForm } from '../../lib/use-form';
import { checkRequired, onlyProblems } from '../../lib/validation';
import { NewAccountFields, newAccountBody, newAccountChecks } from './new-account';
import { register } from './auth-api';
import { AuthLayout } from './AuthLayout';

const SERVER_FIELDS = { username: 'username', password: 'password', display_name: 'displayName', setup_code: 'setupCode' };

export function FirstRunPage({ status }: { status: BootstrapStatus }) {
  const queryClient = useQueryClient();
  const form = useForm({ username: '', displayName: '', password: '', confirm: '', setupCode: '' });
  const { values } = form;

  const mutation = useMutation({
    mutationFn: register,
    onSuccess: (created) => {
      session.signedIn(created);
      void queryClient.invalidateQueries({ queryKey: queryKeys.bootstrap });
    },
    onError: (error) => {
      const feedback = feedbackFrom(error, SERVER_FIELDS);
      if (error instanceof ApiError && error.code === 'setup_code_required' && status.setup_code_required) {
        feedback.fields.setupCode = error.message;
      }
      // Someone created the administrator meanwhile (the server now wants an invite code): the fresh
      // bootstrap status takes this page away and shows sign-in instead.
      if (error instanceof ApiError && (error.code === 'registration_closed' || error.code === 'invite_code_invalid')) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.bootstrap });
      }
      form.setFeedback(feedback);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = onlyProblems({
      ...newAccountChecks(values),
      setupCode: status.setup_code_required ? checkRequired(values.setupCode, 'Enter the setup code.') : null,
    });
    form.setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    mutation.mutate({
      ...newAccountBody(values),
      ...(status.setup_code_required ? { setup_code: values.setupCode.trim() } : {}),
    });
  };

  return (
    <AuthLayout
      title="Welcome to Hearth"
      intro={
        <p>
          Hearth has no accounts yet. Create the <strong>administrator</strong> account first: it manages who can sign in and
          how Hearth is set up. Everyone else gets their own account later.
        </p>
      }
    >
      <form ref={form.formRef} className="form" onSubmit={submit} noValidate aria-label="Create the administrator account">
        <FormError message={form.feedback.summary} />
        <NewAccountFields field={form.field} />
        {status.setup_code_required && (
          <TextField
            label="Setup code"
            hint="You are not on the Hearth machine itself, so Hearth needs the one-time setup code it printed in its console when it started."
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            {...form.field('setupCode')}
          />
        )}
        <Button type="submit" busy={mutation.isPending} busyLabel="Creating account…">
          Create administrator account
        </Button>
      </form>
    </AuthLayout>
  );
}

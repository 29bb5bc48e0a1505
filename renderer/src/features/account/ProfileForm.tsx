/** The display name shown to the household. The user name is the sign-in name and stays as it is. */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import { session } from '../../api/session';
import type { User } from '../../api/types';
import { Button } from '../../components/Button';
import { FormError, FormSuccess } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks } from '../../lib/form-feedback';
import { useForm } from '../../lib/use-form';
import { checkDisplayName, onlyProblems } from '../../lib/validation';

export function ProfileForm({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const form = useForm({ displayName: user.display_name });
  const [saved, setSaved] = useState(false);

  const mutation = useMutation({
    mutationFn: (display_name: string) => request(api.PATCH('/api/v1/users/me/profile', { body: { display_name } })),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.me, updated);
      session.updateUser(updated);
      form.setValues({ displayName: updated.display_name });
      setSaved(true);
    },
    onError: (error) => form.setFeedback(feedbackFrom(error, { display_name: 'displayName' })),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const problems = onlyProblems({ displayName: checkDisplayName(form.values.displayName, { optional: false }) });
    form.setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    mutation.mutate(form.values.displayName.trim());
  };

  return (
    <section className="card" aria-labelledby="profile-heading">
      <h2 className="card__title" id="profile-heading">
        Profile
      </h2>
      <form ref={form.formRef} className="form" onSubmit={submit} noValidate>
        <FormError message={form.feedback.summary} />
        <FormSuccess message={saved ? 'Your profile is saved.' : null} />
        <dl className="facts">
          <div>
            <dt>User name</dt>
            <dd>{user.username}</dd>
          </div>
        </dl>
        <TextField label="Display name" hint="How Hearth shows you to the rest of the household." autoComplete="name" {...form.field('displayName')} />
        <div className="form__actions">
          <Button type="submit" busy={mutation.isPending} busyLabel="Saving…">
            Save profile
          </Button>
        </div>
      </form>
    </section>
  );
}

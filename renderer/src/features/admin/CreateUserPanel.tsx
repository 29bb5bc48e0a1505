/**
 * The administrator creates an account directly (for someone who will not sign up themselves). The
 * first password is one the administrator knows, so the member must change it at first sign-in; left
 * empty, Hearth makes one and shows it once.
 */
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { CopyableSecret } from '../../components/CopyableSecret';
import { FormError, FormSuccess } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks, NO_FEEDBACK, type FormFeedback } from '../../lib/form-feedback';
import { checkDisplayName, checkNewPassword, checkUsername, onlyProblems, USERNAME_HINT } from '../../lib/validation';
import { useCreateUser, type CreatedUser } from './admin-api';

const EMPTY = { username: '', displayName: '', password: '' };

export function CreateUserPanel() {
  const create = useCreateUser();
  const [values, setValues] = useState(EMPTY);
  const [feedback, setFeedback] = useState<FormFeedback>(NO_FEEDBACK);
  const [created, setCreated] = useState<{ result: CreatedUser; password: string } | null>(null);
  const set = (name: keyof typeof EMPTY) => (v: string) => setValues((old) => ({ ...old, [name]: v }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setCreated(null);
    const problems = onlyProblems({
      username: checkUsername(values.username),
      displayName: checkDisplayName(values.displayName, { optional: true }),
      password: values.password ? checkNewPassword(values.password) : null,
    });
    setFeedback(feedbackFromChecks(problems));
    if (Object.keys(problems).length) return;
    const given = values.password;
    create.mutate(
      {
        username: values.username.trim(),
        ...(values.displayName.trim() ? { display_name: values.displayName.trim() } : {}),
        ...(given ? { password: given } : {}),
      },
      {
        onSuccess: (result) => {
          setCreated({ result, password: result.temporary_password ?? given });
          setValues(EMPTY);
        },
        onError: (error) => setFeedback(feedbackFrom(error, { username: 'username', display_name: 'displayName', password: 'password' })),
      },
    );
  };

  return (
    <section className="card" aria-labelledby="create-user-heading">
      <h2 className="card__title" id="create-user-heading">
        Create an account
      </h2>
      <p className="card__intro">For someone who will not sign up themselves. They choose their own password the first time they sign in.</p>
      <form className="form" onSubmit={submit} noValidate aria-label="Create an account">
        <FormError message={feedback.summary} />
        <TextField label="User name" hint={USERNAME_HINT} autoComplete="off" autoCapitalize="none" spellCheck={false} value={values.username} onChange={set('username')} error={feedback.fields.username} />
        <TextField label="Display name" labelNote="optional" value={values.displayName} onChange={set('displayName')} error={feedback.fields.displayName} />
        <TextField
          label="First password"
          labelNote="optional"
          hint="Leave empty and Hearth makes one. Either way it only works once: the member then chooses their own."
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={feedback.fields.password}
        />
        <div className="form__actions">
          <Button type="submit" busy={create.isPending} busyLabel="Creating…">
            Create account
          </Button>
        </div>
      </form>
      {created && (
        <div className="reset-result">
          <FormSuccess message={`Account @${created.result.user.username} created. Give them this password to sign in the first time:`} />
          <CopyableSecret label="First password" value={created.password} />
        </div>
      )}
    </section>
  );
}

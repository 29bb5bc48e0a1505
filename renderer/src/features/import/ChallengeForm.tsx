/**
 * The provider's challenge after signing in (a verification code sent to a phone): drawn from the challenge's own
 * fields and answered with verifyCloudCredentialChallenge. A wrong code keeps the form open with the reason.
 *
 * The challenge's `description` is the provider's sentence of where the code went ("Apple sent a 6-digit code to your
 * trusted Apple devices."); its `params` (`delivery: device`, a masked phone) are for clients to branch on, not words
 * to show, so they are not listed. A refused code (`cloud_auth_failed` here) is said in the provider's words, which
 * speak of the code: the page's own words for that code are about a password.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { emptyValues, FieldInput, filledInputs } from './FieldInput';
import { useVerifyChallenge, type CloudChallenge, type CloudCredential } from './import-api';
import { codeOf, importProblemWords, inputErrors } from './problem-words';

interface ChallengeFormProps {
  credentialId: string;
  /** The account's provider id, for its words about a failure. */
  provider: string;
  challenge: CloudChallenge;
  onConnected: (credential: CloudCredential) => void;
  onCancel: () => void;
}

/** Why the code was refused: the provider's own words for a wrong code, the page's for the rest. */
function refusal(error: Error, provider: string): string {
  return codeOf(error) === 'cloud_auth_failed' ? error.message : importProblemWords(error, provider);
}

export function ChallengeForm({ credentialId, provider, challenge, onConnected, onCancel }: ChallengeFormProps) {
  const verify = useVerifyChallenge();
  const [values, setValues] = useState(() => emptyValues(challenge.fields));
  const errors = inputErrors(verify.error);
  const form = useRef<HTMLFormElement>(null);

  // This step takes the place of the form whose button was pressed, so the focus would be left on nothing: it goes to
  // the code (a phone's keyboard and its one-time-code suggestion come up at once; a screen reader hears the step).
  useEffect(() => form.current?.querySelector<HTMLInputElement>('input:not([type="hidden"])')?.focus(), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    verify.mutate({ id: credentialId, inputs: filledInputs(challenge.fields, values) }, { onSuccess: (r) => onConnected(r.credential) });
  };

  return (
    <form ref={form} className="form import-form" onSubmit={submit} aria-label={challenge.title}>
      <h3 className="import-form__title">{challenge.title}</h3>
      <p>{challenge.description}</p>
      {challenge.fields.map((f, i) => (
        <FieldInput key={f.name} field={f} value={values[f.name] ?? ''} onChange={(v) => setValues((s) => ({ ...s, [f.name]: v }))} error={errors[f.name]} autoFocus={i === 0} />
      ))}
      <FormError message={verify.error ? refusal(verify.error, provider) : null} />
      <div className="form__actions">
        <Button type="submit" busy={verify.isPending} busyLabel="Checking…">
          Verify
        </Button>
        <Button variant="quiet" onClick={onCancel} disabled={verify.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * The provider's challenge after signing in (a verification code sent to a phone): drawn from the challenge's own
 * fields and answered with verifyCloudCredentialChallenge. A wrong code keeps the form open with the reason.
 */
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { emptyValues, FieldInput, filledInputs } from './FieldInput';
import { useVerifyChallenge, type CloudChallenge, type CloudCredential } from './import-api';
import { importProblemWords, inputErrors } from './problem-words';

interface ChallengeFormProps {
  credentialId: string;
  challenge: CloudChallenge;
  onConnected: (credential: CloudCredential) => void;
  onCancel: () => void;
}

export function ChallengeForm({ credentialId, challenge, onConnected, onCancel }: ChallengeFormProps) {
  const verify = useVerifyChallenge();
  const [values, setValues] = useState(() => emptyValues(challenge.fields));
  const errors = inputErrors(verify.error);
  const params = Object.entries(challenge.params);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    verify.mutate({ id: credentialId, inputs: filledInputs(challenge.fields, values) }, { onSuccess: (r) => onConnected(r.credential) });
  };

  return (
    <form className="form import-form" onSubmit={submit} aria-label={challenge.title}>
      <h3 className="import-form__title">{challenge.title}</h3>
      <p>{challenge.description}</p>
      {params.length > 0 && (
        <dl className="facts">
          {params.map(([k, v]) => (
            <div key={k}>
              <dt>{k.replace(/_/g, ' ')}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
      {challenge.fields.map((f, i) => (
        <FieldInput key={f.name} field={f} value={values[f.name] ?? ''} onChange={(v) => setValues((s) => ({ ...s, [f.name]: v }))} error={errors[f.name]} autoFocus={i === 0} />
      ))}
      <FormError message={verify.error ? importProblemWords(verify.error) : null} />
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

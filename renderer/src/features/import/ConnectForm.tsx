/**
 * Connecting an account at a provider: the provider's form (its `form_fields`), an optional name for the list, and
 * "Test connection", which is the connection itself (createCloudCredential asks the provider at once). A refusal is
 * said in plain words beside the form. A certificate the server's machine does not trust is shown with its
 * fingerprint and a box to trust exactly that certificate, which fills `trusted_fingerprint` and tries again. A
 * provider that asks for a code next (challenge_required) continues in the challenge form.
 */
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { ChallengeForm } from './ChallengeForm';
import { emptyValues, FieldInput, filledInputs } from './FieldInput';
import { useCreateCredential, type CloudChallenge, type CloudCredential, type CloudProvider } from './import-api';
import { fingerprintIn, importProblemWords, inputErrors } from './problem-words';

/** The form field a provider takes a trusted certificate's fingerprint in (WebDAV). */
const TRUST_FIELD = 'trusted_fingerprint';

interface ConnectFormProps {
  provider: CloudProvider;
  onConnected: (credential: CloudCredential) => void;
  onCancel: () => void;
}

export function ConnectForm({ provider, onConnected, onCancel }: ConnectFormProps) {
  const create = useCreateCredential();
  const [values, setValues] = useState(() => emptyValues(provider.form_fields));
  const [displayName, setDisplayName] = useState('');
  const [challenge, setChallenge] = useState<{ credentialId: string; challenge: CloudChallenge } | null>(null);
  const canTrust = provider.form_fields.some((f) => f.name === TRUST_FIELD);
  // Without a name of its own, the server lists the account by its sign-in: a user at a server for a provider whose form
  // takes an address (WebDAV), the sign-in name alone otherwise (iCloud: the Apple Account).
  const atServer = provider.form_fields.some((f) => f.type === 'url');

  const connect = (inputs: Record<string, string>) => {
    create.mutate(
      { provider: provider.id, inputs: filledInputs(provider.form_fields, inputs), ...(displayName.trim() ? { display_name: displayName.trim() } : {}) },
      {
        onSuccess: (answer) => {
          if (answer.auth_status === 'challenge_required' && answer.challenge) setChallenge({ credentialId: answer.credential.id, challenge: answer.challenge });
          else onConnected(answer.credential);
        },
      },
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    connect(values);
  };

  const trust = (fingerprint: string) => {
    const next = { ...values, [TRUST_FIELD]: fingerprint };
    setValues(next);
    connect(next);
  };

  if (challenge) {
    return <ChallengeForm credentialId={challenge.credentialId} provider={provider.id} challenge={challenge.challenge} onConnected={onConnected} onCancel={onCancel} />;
  }

  const errors = inputErrors(create.error);
  const fingerprint = canTrust ? fingerprintIn(create.error) : null;

  return (
    <form className="form import-form" onSubmit={submit} aria-label={`Connect ${provider.title}`}>
      {provider.form_fields.map((f, i) => (
        <FieldInput key={f.name} field={f} value={values[f.name] ?? ''} onChange={(v) => setValues((s) => ({ ...s, [f.name]: v }))} error={errors[f.name]} autoFocus={i === 0} />
      ))}
      <TextField
        label="Name in your list"
        labelNote="optional"
        hint={
          atServer
            ? 'For example “Our NAS”. Without one, the account is listed by its user name and server.'
            : 'For example “Family photos”. Without one, the account is listed by the name it signs in with.'
        }
        value={displayName}
        onChange={setDisplayName}
        maxLength={200}
        autoComplete="off"
      />
      {create.error && (
        <div className="notice notice--error import-form__problem" role="alert">
          <p>{importProblemWords(create.error, provider.id)}</p>
          {fingerprint && (
            <>
              <p>
                If this is your own server with a certificate it made itself (many NAS boxes have one), compare this fingerprint with the one its
                settings show:
              </p>
              <p className="import-fingerprint">
                <code>{fingerprint}</code>
              </p>
              <label className="choice">
                <input type="checkbox" checked={values[TRUST_FIELD] === fingerprint} disabled={create.isPending} onChange={(e) => e.target.checked && trust(fingerprint)} />
                <span>Trust this certificate (fingerprint {fingerprint})</span>
              </label>
            </>
          )}
        </div>
      )}
      <div className="form__actions">
        <Button type="submit" busy={create.isPending} busyLabel="Testing the connection…">
          Test connection
        </Button>
        <Button variant="quiet" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * Account → Security: passkeys. Add one (named, made for the address this page is open at), see each
 * with when it was last used and where it works, remove one after confirming it is you. Where the
 * browser allows no passkeys (plain HTTP to a LAN address, a numeric address), the section says why
 * and what works instead, and keeps the list (a passkey can still be removed from here).
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addPasskey, cancelledMessage, passkeyUnavailableText, useBrowserAuthCapabilities } from '../../../api/passkeys';
import { messageOf } from '../../../api/problem';
import { session } from '../../../api/session';
import { Button } from '../../../components/Button';
import { FormError, FormSuccess } from '../../../components/FormError';
import { LoadError } from '../../../components/LoadError';
import { PasskeyInBrowser } from '../../../components/PasskeyInBrowser';
import { TextField } from '../../../components/TextField';
import { formatDateTime } from '../../../lib/dates';
import { ConfirmItsYouForm } from './ConfirmItsYouForm';
import { deletePasskey, listPasskeys, mfaStatusKey, passkeysKey, type MfaStatus, type Passkey } from './security-api';

/** A ceremony the window could not run (no authenticator reachable in the desktop app's window). */
const isUnavailableHere = (e: unknown) => ['NotAllowedError', 'NotSupportedError'].includes((e as { name?: string } | null)?.name ?? '');

export function PasskeysSection({ status }: { status: MfaStatus }) {
  const queryClient = useQueryClient();
  const caps = useBrowserAuthCapabilities();
  const list = useQuery({ queryKey: passkeysKey, queryFn: listPasskeys });
  const [label, setLabel] = useState('');
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const available = caps.data?.passkey_available === true;

  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: passkeysKey }), queryClient.invalidateQueries({ queryKey: mfaStatusKey })]);

  const add = useMutation({
    mutationFn: () => addPasskey(label),
    onSuccess: async (result) => {
      session.signedIn(result.session);
      setLabel('');
      setDone(`The passkey “${result.credential.label}” is added. Next time, sign in with it instead of your password.`);
      await refresh();
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    add.mutate();
  };

  const addError = add.error ? (cancelledMessage(add.error) ?? messageOf(add.error)) : null;

  return (
    <section className="card" aria-labelledby="passkeys-heading">
      <h2 className="card__title" id="passkeys-heading">
        Passkeys
      </h2>
      <p className="card__intro">
        A passkey signs you in with this device’s screen lock (fingerprint, face or PIN) instead of your password. It works at the address it was added at.
      </p>
      <FormSuccess message={done} />
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data && list.data.total > 0 ? (
        <ul className="passkey-list" aria-label="Your passkeys">
          {list.data.credentials.map((p) => (
            <li key={p.passkey_id} className="passkey-list__item">
              <div>
                <strong>{p.label}</strong>
                <p className="passkey-list__meta">
                  Added {formatDateTime(p.created_at)} · {p.last_used_at ? `last used ${formatDateTime(p.last_used_at)}` : 'not used yet'} · works at {p.rp_id}
                </p>
              </div>
              <Button variant="secondary" aria-label={`Remove the passkey ${p.label}`} onClick={() => setRemoving(p)} disabled={removing !== null}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : list.data ? (
        <p>No passkeys yet.</p>
      ) : null}

      {removing && (
        <div className="passkey-remove" role="group" aria-label={`Remove the passkey ${removing.label}`}>
          <p>
            Remove <strong>{removing.label}</strong>? Your other devices are signed out, in case it is on a lost one.
          </p>
          <ConfirmItsYouForm
            action="delete_passkey"
            hasSecondFactor={status.totp_enabled}
            canUsePasskey={available && status.passkey_count > 0}
            submitLabel="Remove the passkey"
            busyLabel="Removing…"
            onConfirmed={async (token) => {
              const result = await deletePasskey(removing.passkey_id, token);
              session.signedIn(result.session);
              queryClient.setQueryData(mfaStatusKey, result.status);
              setDone(`The passkey “${removing.label}” is removed. Your other devices have been signed out.`);
              setRemoving(null);
              await refresh();
            }}
            onCancel={() => setRemoving(null)}
          />
        </div>
      )}

      {caps.data && !available ? (
        <>
          <div className="notice notice--info" role="note">
            {passkeyUnavailableText(caps.data.passkey_unavailable_reason, caps.data.current_origin)}
          </div>
          <PasskeyInBrowser doing="add a passkey" />
        </>
      ) : caps.data ? (
        <form className="form" onSubmit={submit} noValidate aria-label="Add a passkey">
          <FormError message={addError} />
          {add.error && isUnavailableHere(add.error) && <PasskeyInBrowser doing="add a passkey" />}
          <TextField label="Name for the passkey" labelNote="optional" hint="So you can tell it apart later, e.g. “Anna’s phone”." maxLength={60} value={label} onChange={setLabel} />
          <div className="form__actions">
            <Button type="submit" busy={add.isPending} busyLabel="Waiting for the passkey…">
              Add a passkey
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

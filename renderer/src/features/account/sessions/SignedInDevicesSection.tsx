/**
 * Account → Signed-in devices: where this account is signed in (browser and system as the server read
 * them from each device's user agent, address, last use), with "Sign out" for each other device and for
 * all of them at once. This device is not signed out here: that is the menu's Sign out, which also
 * forgets the cookie.
 *
 * "Last used" is the device's last sign-in or token renewal (every 15 minutes while it is in use), so
 * this device says "now" rather than a time that only tells when its token was last renewed.
 */
import { useState } from 'react';
import { messageOf } from '../../../api/problem';
import { Button } from '../../../components/Button';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { FormError, FormSuccess } from '../../../components/FormError';
import { LoadError } from '../../../components/LoadError';
import { formatDate } from '../../../lib/dates';
import { formatRelative } from '../../../lib/format';
import { deviceName, useMySessions, useSignOutDevice, useSignOutOtherDevices, type SignedInDevice } from './sessions-api';
import './sessions.css';

const METHOD_WORDS: Record<string, string> = { totp: 'with a code', recovery_code: 'with a recovery code', passkey: 'with a passkey' };

export function SignedInDevicesSection() {
  const sessions = useMySessions();
  const signOut = useSignOutDevice();
  const signOutOthers = useSignOutOtherDevices();
  const [confirmAll, setConfirmAll] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current);
  const error = signOut.error ?? signOutOthers.error;

  const body = () => {
    if (sessions.isError) return <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />;
    if (!sessions.data) return <p aria-busy="true">Loading…</p>;
    return (
      <>
        <ul className="devices" aria-label="Signed-in devices">
          {list.map((d) => (
            <DeviceRow
              key={d.session_id}
              device={d}
              busy={signOut.isPending && signOut.variables === d.session_id}
              onSignOut={() => {
                setDone(null);
                signOut.mutate(d.session_id, { onSuccess: () => setDone(`${deviceName(d)} is signed out.`) });
              }}
            />
          ))}
        </ul>
        <FormError message={error ? messageOf(error) : null} />
        <FormSuccess message={done} />
        {others.length > 0 ? (
          <div className="form__actions">
            <Button variant="danger" onClick={() => setConfirmAll(true)}>
              Sign out every other device
            </Button>
          </div>
        ) : (
          <p className="devices__alone">This is the only device signed in to your account.</p>
        )}
        {confirmAll && (
          <ConfirmDialog
            title="Sign out every other device?"
            confirmLabel="Sign out other devices"
            busyLabel="Signing out…"
            busy={signOutOthers.isPending}
            error={signOutOthers.error ? messageOf(signOutOthers.error) : null}
            onCancel={() => setConfirmAll(false)}
            onConfirm={() =>
              signOutOthers.mutate(undefined, {
                onSuccess: (r) => {
                  setConfirmAll(false);
                  setDone(r.revoked === 1 ? '1 other device is signed out.' : `${r.revoked} other devices are signed out.`);
                },
              })
            }
          >
            {others.length === 1 ? 'The other device' : `The ${others.length} other devices`} will need your password (and your second step, if it is on)
            to open Hearth again. This device stays signed in.
          </ConfirmDialog>
        )}
      </>
    );
  };

  return (
    <section className="card" aria-labelledby="devices-heading">
      <h2 className="card__title" id="devices-heading">
        Signed-in devices
      </h2>
      <p>Sign out a device you no longer use or do not recognise. If you do not recognise one, change your password too.</p>
      {body()}
    </section>
  );
}

function DeviceRow({ device: d, busy, onSignOut }: { device: SignedInDevice; busy: boolean; onSignOut: () => void }) {
  const name = deviceName(d);
  const how = d.auth_methods.map((m) => METHOD_WORDS[m]).filter(Boolean);
  return (
    <li className="device" aria-label={d.current ? `${name} (this device)` : name}>
      <div className="device__what">
        <p className="device__name">
          <strong>{name}</strong>
          {d.current && <span className="badge">This device</span>}
        </p>
        <p className="device__meta">
          {d.ip ?? 'Address unknown'}
          {' · '}
          {d.current ? 'in use now' : `last used ${formatRelative(d.last_used_at)}`}
          {' · '}
          signed in {formatDate(d.created_at)}
          {how.length > 0 && ` ${how.join(', ')}`}
        </p>
      </div>
      {!d.current && (
        <Button variant="secondary" busy={busy} busyLabel="Signing out…" onClick={onSignOut} aria-label={`Sign out ${name} (${d.ip ?? 'address unknown'})`}>
          Sign out
        </Button>
      )}
    </li>
  );
}

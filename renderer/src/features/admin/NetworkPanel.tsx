/**
 * "Let other devices on this network use Hearth", and the addresses phones should open, each with
 * its QR code. The switch takes effect at once (the server moves its listener; this window keeps
 * working through 127.0.0.1). When HEARTH_HOST is set, the switch is shown but locked, and the page
 * says why.
 */
import { useId } from 'react';
import { messageOf } from '../../api/problem';
import { FormError } from '../../components/FormError';
import { QrCode } from './QrCode';
import { useAllowOtherDevices, useNetworkStatus, type NetworkStatus } from './admin-api';
import './admin-network.css';

export function NetworkPanel() {
  const status = useNetworkStatus();
  return (
    <section className="card" aria-labelledby="network-heading">
      <h2 className="card__title" id="network-heading">
        Phones and other devices
      </h2>
      {status.isPending && <p role="status">Looking at the network…</p>}
      {status.isError && (
        <div className="notice notice--error" role="alert">
          {messageOf(status.error)}
        </div>
      )}
      {status.data && <NetworkSettings status={status.data} />}
    </section>
  );
}

function NetworkSettings({ status }: { status: NetworkStatus }) {
  const toggle = useAllowOtherDevices();
  const hintId = useId();
  const reachable = status.reachable_from_network;
  return (
    <>
      <label className="choice network-switch">
        <input
          type="checkbox"
          role="switch"
          checked={status.fixed_by_environment ? reachable : status.allow_other_devices}
          disabled={status.fixed_by_environment || toggle.isPending}
          aria-describedby={hintId}
          onChange={(e) => toggle.mutate(e.currentTarget.checked)}
        />
        <span>
          <strong>Let other devices on this network use Hearth</strong>
        </span>
      </label>
      <p className="field__hint" id={hintId}>
        {status.fixed_by_environment
          ? `The HEARTH_HOST setting of this machine (${status.environment_host}) decides where Hearth listens, so this switch is locked. Remove HEARTH_HOST and restart to choose here.`
          : 'Phones, tablets and other computers on your home network can then open Hearth. Everyone still signs in with their own account.'}
      </p>
      <FormError message={toggle.isError ? messageOf(toggle.error) : undefined} />

      {!reachable && (
        <div className="notice notice--info" role="status" data-testid="network-local-only">
          Only this computer can open Hearth now{status.fixed_by_environment ? '' : ': turn on the switch above to let phones in'}. The
          addresses below will work once it is on.
        </div>
      )}
      {status.addresses.length === 0 ? (
        <p className="field__hint">This machine has no network address right now (is it connected to Wi-Fi or a cable?).</p>
      ) : (
        <>
          <p className="card__intro">{reachable ? 'On a phone, open one of these addresses or scan its code with the camera:' : 'Addresses of this machine:'}</p>
          <ul className="phone-addresses" aria-label="Addresses to open on other devices">
            {status.addresses.map((a) => (
              <li key={a.url} className={`phone-address${reachable ? '' : ' phone-address--off'}`}>
                <QrCode svg={a.qr_svg} label={a.url} />
                <div>
                  <a className="phone-address__url" href={a.url}>
                    {a.url}
                  </a>
                  <p className="field__hint">
                    {a.family} on {a.interface}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

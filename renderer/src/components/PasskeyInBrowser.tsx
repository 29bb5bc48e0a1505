/**
 * Inside the desktop app's window, where a passkey cannot be used (no platform authenticator reachable, and a
 * loopback address browsers refuse passkeys at): a button that opens this page in the person's own browser, with
 * what to do there. Renders nothing in a browser (api/desktop-host.ts).
 */
import { useState } from 'react';
import { desktopHost } from '../api/desktop-host';
import { Button } from './Button';

export function PasskeyInBrowser({ doing }: { doing: string }) {
  const host = desktopHost();
  const [state, setState] = useState<'idle' | 'busy' | 'opened' | 'refused'>('idle');
  if (!host) return null;
  const open = async () => {
    setState('busy');
    setState((await host.openInBrowser().catch(() => false)) ? 'opened' : 'refused');
  };
  return (
    <div className="passkey-in-browser">
      <p>In the Hearth app, passkeys work through your web browser: open this page there to {doing}.</p>
      <Button variant="secondary" busy={state === 'busy'} busyLabel="Opening…" onClick={() => void open()}>
        Open in your browser
      </Button>
      {state === 'opened' && <p role="status">Your browser shows this page now. Sign in there with your password once, then use your passkey.</p>}
      {state === 'refused' && (
        <p role="alert" className="field__error">
          The browser could not be opened from here. Open the address of this Hearth in your browser yourself.
        </p>
      )}
    </div>
  );
}

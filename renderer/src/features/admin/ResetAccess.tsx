/**
 * Resetting someone's access: confirm, then show the temporary password exactly once. It is held in
 * this component's state only and forgotten when the administrator presses Done or leaves the page.
 */
import { useState } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { CopyableSecret } from '../../components/CopyableSecret';
import { FormError } from '../../components/FormError';
import { useResetAccess, type AdminUser } from './admin-api';

export function ResetAccess({ user }: { user: AdminUser }) {
  const [stage, setStage] = useState<'idle' | 'confirm'>('idle');
  const [temporary, setTemporary] = useState<string | null>(null);
  const reset = useResetAccess();
  const name = user.display_name;

  if (temporary) {
    return (
      <div className="reset-result" role="region" aria-label={`Temporary password for ${name}`}>
        <CopyableSecret label={`Temporary password for ${name}`} value={temporary} />
        <p className="field__hint">
          Shown only this once. Give it to {name} in person; when they sign in with it, Hearth asks them to choose their own.
        </p>
        <Button variant="secondary" onClick={() => setTemporary(null)}>
          Done
        </Button>
      </div>
    );
  }

  if (stage === 'confirm') {
    return (
      <div className="reset-confirm" role="group" aria-label={`Confirm resetting access for ${name}`}>
        <p>
          Reset access for <strong>{name}</strong>? They are signed out everywhere and get a temporary password.
          {user.stats.second_factors.length > 0 && ' Their two-step sign-in is turned off and their recovery codes stop working: they can turn it on again after signing in.'}
        </p>
        <FormError message={reset.error ? messageOf(reset.error) : null} />
        <div className="button-row">
          <Button
            variant="danger"
            busy={reset.isPending}
            busyLabel="Resetting…"
            onClick={() =>
              reset.mutate(user.user_id, {
                onSuccess: (result) => {
                  setTemporary(result.temporary_password);
                  setStage('idle');
                },
              })
            }
          >
            Reset access
          </Button>
          <Button variant="quiet" onClick={() => setStage('idle')} disabled={reset.isPending}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }

  return (
    <Button variant="secondary" onClick={() => setStage('confirm')} aria-label={`Reset access for ${name}`}>
      Reset access
    </Button>
  );
}

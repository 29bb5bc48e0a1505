/**
 * Signing a member out everywhere (a lost phone, a shared computer they forgot): confirm, then every
 * session of theirs ends at once; their password and second factors stay as they are. Resetting access
 * is the stronger step, for a password someone else may know.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { messageOf, request } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import { Button } from '../../components/Button';
import { FormError, FormSuccess } from '../../components/FormError';
import type { AdminUser } from './admin-api';

function useSignOutEverywhere() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(api.DELETE('/api/v1/users/{id}/sessions', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}

export function SignOutEverywhere({ user }: { user: AdminUser }) {
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const signOut = useSignOutEverywhere();
  const name = user.display_name;
  const count = user.stats.active_sessions;

  if (confirming) {
    return (
      <div className="reset-confirm" role="group" aria-label={`Confirm signing ${name} out everywhere`}>
        <p>
          Sign <strong>{name}</strong> out of {count === 1 ? 'their 1 device' : `all ${count} of their devices`}? They can sign in again with their password.
        </p>
        <FormError message={signOut.error ? messageOf(signOut.error) : null} />
        <div className="button-row">
          <Button
            variant="danger"
            busy={signOut.isPending}
            busyLabel="Signing out…"
            onClick={() =>
              signOut.mutate(user.user_id, {
                onSuccess: (r) => {
                  setConfirming(false);
                  setDone(`${name} is signed out of ${r.revoked === 1 ? '1 device' : `${r.revoked} devices`}.`);
                },
              })
            }
          >
            Sign out everywhere
          </Button>
          <Button variant="quiet" onClick={() => setConfirming(false)} disabled={signOut.isPending}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }

  return (
    <>
      <FormSuccess message={done} />
      {count > 0 && (
        <Button
          variant="secondary"
          onClick={() => {
            signOut.reset();
            setDone(null);
            setConfirming(true);
          }}
          aria-label={`Sign ${name} out everywhere`}
        >
          Sign out everywhere
        </Button>
      )}
    </>
  );
}

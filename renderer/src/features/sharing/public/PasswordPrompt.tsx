/** The password of a link. A wrong one says so under the field; a lockout (429) says how long to wait. */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, messageOf } from '../../../api/problem';
import { Button } from '../../../components/Button';
import { TextField } from '../../../components/TextField';
import { unlockLink } from './public-api';

export function PasswordPrompt({ linkKey, title, onUnlocked }: { linkKey: string; title: string; onUnlocked: (token: string, expiresAt: string) => void }) {
  const [password, setPassword] = useState('');
  const unlock = useMutation({
    mutationFn: (p: string) => unlockLink(linkKey, p),
    onSuccess: (t) => onUnlocked(t.link_token, t.expires_at),
  });
  const error = unlock.error instanceof ApiError ? unlock.error : null;
  const wrong = error?.code === 'wrong_password';
  return (
    <form
      className="form public__password"
      aria-label="Unlock the link"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (password) unlock.mutate(password);
      }}
    >
      <h1>{title}</h1>
      <p>This link is protected. Type the password you were given.</p>
      <TextField
        label="Password"
        type="password"
        autoComplete="off"
        value={password}
        onChange={(v) => {
          setPassword(v);
          if (wrong) unlock.reset();
        }}
        error={wrong ? error.detail : undefined}
      />
      {unlock.isError && !wrong && (
        <p className="notice notice--error" role="alert">
          {messageOf(unlock.error)}
        </p>
      )}
      <div className="form__actions">
        <Button type="submit" busy={unlock.isPending} busyLabel="Opening…" disabled={!password}>
          Open
        </Button>
      </div>
    </form>
  );
}

/**
 * What every new account asks for, on the first-run page and on invite-code registration alike:
 * user name, optional display name, password and its confirmation; their checks; and the body
 * fields of the register request.
 */
import { TextField, type TextFieldProps } from '../../components/TextField';
import { checkConfirmation, checkDisplayName, checkNewPassword, checkUsername, PASSWORD_HINT, USERNAME_HINT } from '../../lib/validation';

export interface NewAccountValues {
  username: string;
  displayName: string;
  password: string;
  confirm: string;
}

type FieldProps = Pick<TextFieldProps, 'value' | 'onChange' | 'error'> & { name?: string };

export function newAccountChecks(v: NewAccountValues) {
  return {
    username: checkUsername(v.username),
    displayName: checkDisplayName(v.displayName, { optional: true }),
    password: checkNewPassword(v.password),
    confirm: checkConfirmation(v.password, v.confirm),
  };
}

export function newAccountBody(v: NewAccountValues) {
  return {
    username: v.username.trim(),
    password: v.password,
    ...(v.displayName.trim() ? { display_name: v.displayName.trim() } : {}),
  };
}

export function NewAccountFields({ field }: { field: (name: keyof NewAccountValues) => FieldProps }) {
  return (
    <>
      <TextField label="User name" hint={USERNAME_HINT} autoComplete="username" autoCapitalize="none" spellCheck={false} {...field('username')} />
      <TextField label="Display name" labelNote="optional" hint="How Hearth greets you. Defaults to the user name." autoComplete="name" {...field('displayName')} />
      <TextField label="Password" type="password" hint={PASSWORD_HINT} autoComplete="new-password" {...field('password')} />
      <TextField label="Confirm password" type="password" autoComplete="new-password" {...field('confirm')} />
    </>
  );
}

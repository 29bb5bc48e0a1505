/**
 * The one button. `busy` keeps the label readable ("Saving…") and blocks double submits while a
 * request is in flight, without removing the button from the tab order.
 */
import type { ButtonHTMLAttributes, ReactNode } from 'react';

type Variant = 'primary' | 'secondary' | 'quiet' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  busy?: boolean;
  busyLabel?: string;
  children: ReactNode;
}

export function Button({ variant = 'primary', busy = false, busyLabel, type = 'button', className, children, disabled, ...rest }: ButtonProps) {
  const classes = ['button', `button--${variant}`, className].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

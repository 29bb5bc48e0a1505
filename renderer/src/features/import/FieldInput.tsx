/**
 * One field of a provider's form, drawn from its descriptor (the server says label, help text, kind and
 * autocomplete): passwords masked, addresses and e-mail with the matching on-screen keyboard, codes with the
 * one-time-code autofill a phone offers from a text message. Values are strings, as the server takes them
 * (a checkbox is "true" or "false").
 */
import { useId } from 'react';
import { TextField } from '../../components/TextField';
import type { FieldDescriptor } from './import-api';

interface FieldInputProps {
  field: FieldDescriptor;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  autoFocus?: boolean;
}

type InputMode = 'text' | 'email' | 'url' | 'numeric';

const KIND: Record<'text' | 'email' | 'password' | 'url' | 'code', { type: string; inputMode: InputMode }> = {
  text: { type: 'text', inputMode: 'text' },
  email: { type: 'email', inputMode: 'email' },
  password: { type: 'password', inputMode: 'text' },
  url: { type: 'url', inputMode: 'url' },
  code: { type: 'text', inputMode: 'numeric' },
};

/** "(optional)" after the label, unless the server's label already says so. */
const noteFor = (f: FieldDescriptor) => (f.required || /optional/i.test(f.label) ? undefined : 'optional');

export function FieldInput({ field: f, value, onChange, error, autoFocus }: FieldInputProps) {
  const id = useId();
  if (f.type === 'checkbox') {
    return (
      <div className={['field', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
        <label className="choice" htmlFor={id}>
          <input id={id} type="checkbox" checked={value === 'true'} onChange={(e) => onChange(e.target.checked ? 'true' : 'false')} />
          <span>
            <span className="field__label">{f.label}</span>
            {f.help_text && <span className="field__hint import-field__help">{f.help_text}</span>}
          </span>
        </label>
        {error && <p className="field__error">{error}</p>}
      </div>
    );
  }
  if (f.type === 'select') {
    const hintId = f.help_text ? `${id}-hint` : undefined;
    return (
      <div className={['field', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
        <label className="field__label" htmlFor={id}>
          {f.label}
          {noteFor(f) && <span className="field__note"> ({noteFor(f)})</span>}
        </label>
        {f.help_text && (
          <p className="field__hint" id={hintId}>
            {f.help_text}
          </p>
        )}
        <select id={id} className="field__input" value={value} required={f.required} aria-describedby={hintId} onChange={(e) => onChange(e.target.value)}>
          {!f.required && <option value="">—</option>}
          {(f.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {error && <p className="field__error">{error}</p>}
      </div>
    );
  }
  const kind = KIND[f.type];
  const freeText = f.type === 'text' && !f.autocomplete;
  return (
    <TextField
      label={f.label}
      labelNote={noteFor(f)}
      hint={f.help_text}
      value={value}
      onChange={onChange}
      error={error}
      type={kind.type}
      inputMode={kind.inputMode}
      name={f.name}
      required={f.required}
      autoFocus={autoFocus}
      autoComplete={f.autocomplete ?? (f.type === 'code' ? 'one-time-code' : 'off')}
      // Addresses, user names, tokens and codes are typed exactly: no capital first letter, no spelling fixes.
      autoCapitalize={freeText ? undefined : 'none'}
      autoCorrect={freeText ? undefined : 'off'}
      spellCheck={freeText ? undefined : false}
    />
  );
}

/** A form's starting values: empty, a checkbox unticked, a required choice on its first option (as the list shows it). */
export const emptyValues = (fields: readonly FieldDescriptor[]): Record<string, string> =>
  Object.fromEntries(fields.map((f) => [f.name, f.type === 'checkbox' ? 'false' : f.type === 'select' && f.required ? (f.options?.[0]?.value ?? '') : '']));

/** The inputs to send: required ones always, optional ones only when filled. */
export const filledInputs = (fields: readonly FieldDescriptor[], values: Record<string, string>): Record<string, string> =>
  Object.fromEntries(fields.flatMap((f) => {
    const v = f.type === 'password' ? (values[f.name] ?? '') : (values[f.name] ?? '').trim();
    return f.required || v ? [[f.name, v]] : [];
  }));

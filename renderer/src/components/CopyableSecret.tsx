/**
 * A secret shown once (temporary password, new invite code) in a read-only field with a Copy button.
 * A field rather than plain text so it can also be selected by hand where copying is not allowed.
 */
import { useId, useState } from 'react';
import { copyText } from '../lib/clipboard';
import { Button } from './Button';

export function CopyableSecret({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  return (
    <div className="field copyable">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="copyable__row">
        <input id={id} className="field__input copyable__value" value={value} readOnly onFocus={(e) => e.currentTarget.select()} />
        <Button variant="secondary" onClick={async () => setCopied((await copyText(value)) ? 'yes' : 'no')}>
          Copy
        </Button>
      </div>
      <p className="field__hint" role="status">
        {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Copying is blocked here: select the text and copy it by hand.' : ''}
      </p>
    </div>
  );
}

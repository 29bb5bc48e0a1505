/**
 * How long deleted items wait in the Trash before they are deleted for good, with their files
 * (`trash.retention_days` of the system settings; one rule for the whole household). 0 keeps them
 * until someone empties the Trash. The server refuses anything but a whole number of days from 0.
 */
import { useState, type FormEvent } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { FormError, FormSuccess } from '../../components/FormError';
import { TextField } from '../../components/TextField';
import { feedbackFrom, feedbackFromChecks, NO_FEEDBACK, type FormFeedback } from '../../lib/form-feedback';
import { useSystemSettings, useUpdateSystemSettings } from './admin-api';

export function TrashRetentionPanel() {
  const settings = useSystemSettings();
  return (
    <section className="card" aria-labelledby="trash-retention-heading">
      <h2 className="card__title" id="trash-retention-heading">
        Trash
      </h2>
      {settings.isPending && <p role="status">Loading settings…</p>}
      {settings.isError && (
        <div className="notice notice--error" role="alert">
          {messageOf(settings.error)}
        </div>
      )}
      {settings.data && <RetentionForm days={settings.data.trash.retention_days} />}
    </section>
  );
}

function RetentionForm({ days }: { days: number }) {
  const update = useUpdateSystemSettings();
  const [value, setValue] = useState(String(days));
  const [feedback, setFeedback] = useState<FormFeedback>(NO_FEEDBACK);
  const [saved, setSaved] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isInteger(n) || n < 0) {
      setFeedback(feedbackFromChecks({ days: 'Type a whole number of days, 0 or more.' }));
      return;
    }
    setFeedback(NO_FEEDBACK);
    update.mutate(
      { trash: { retention_days: n } },
      {
        onSuccess: () => setSaved(n === 0 ? 'Items stay in the Trash until it is emptied.' : `Items are deleted for good ${n} day${n === 1 ? '' : 's'} after they go to the Trash.`),
        onError: (error) => setFeedback(feedbackFrom(error, { 'trash.retention_days': 'days' })),
      },
    );
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      <FormError message={feedback.summary} />
      <TextField
        label="Days before items in the Trash are deleted for good"
        hint="Their files are removed from the household's folder then. 0 keeps them until someone empties the Trash."
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={value}
        onChange={(v) => {
          setValue(v);
          setSaved(null);
          if (feedback.fields.days) setFeedback(NO_FEEDBACK);
        }}
        error={feedback.fields.days}
      />
      <FormSuccess message={saved} />
      <div className="button-row">
        <Button type="submit" busy={update.isPending} busyLabel="Saving…">
          Save
        </Button>
      </div>
    </form>
  );
}

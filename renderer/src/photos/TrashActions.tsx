/**
 * What only the Trash offers: "Delete permanently" for chosen items and "Empty trash" for all, each
 * behind a confirmation that names what goes and says the files leave the household's folder. Nothing
 * is deleted without that confirmation; "Empty trash" sends the count that was confirmed, and when
 * the Trash changed meanwhile the server deletes nothing and the dialog says so (trash-api.ts).
 *
 * The result is said in a toast; items that could not be deleted (a read-only or offline folder) are
 * named there and stay in the Trash.
 */
import { useState } from 'react';
import { messageOf } from '../api/problem';
import { Button } from '../components/Button';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Icon } from '../components/Icon';
import { useToast } from '../components/Toast';
import { retentionSentence, useDeletePermanently, useEmptyTrash, useTrashSummary } from './trash-api';

interface Outcome {
  deleted: string[];
  failed: { original_filename: string; message: string }[];
}

const files = (n: number) => (n === 1 ? '1 file' : `${n.toLocaleString()} files`);

function useReport() {
  const toast = useToast();
  return (o: Outcome) => {
    if (o.deleted.length) toast.show({ message: `Deleted ${files(o.deleted.length)} for good.` });
    if (o.failed.length) {
      const first = o.failed[0]!;
      const more = o.failed.length > 1 ? ` (and ${o.failed.length - 1} more)` : '';
      toast.show({ tone: 'error', message: `${first.original_filename}${more} could not be deleted and stays in the Trash: ${first.message}` });
    }
  };
}

/** "Delete permanently" for the selected items of the Trash (or the photo open in the viewer). */
export function DeletePermanentlyButton({ ids, names, disabled, onDone, className }: { ids: readonly string[]; names?: ReadonlyMap<string, string>; disabled?: boolean; onDone: () => void; className?: string }) {
  const [asking, setAsking] = useState(false);
  const del = useDeletePermanently();
  const report = useReport();
  const n = ids.length;
  const name = n === 1 ? names?.get(ids[0]!) : undefined;
  return (
    <>
      {/* In the selection bar, a phone shows the icon alone (library.css `selection-bar__label`). */}
      <Button variant="danger" className={className} aria-label="Delete permanently" title="Delete permanently" disabled={disabled} onClick={() => (del.reset(), setAsking(true))}>
        <Icon name="trash" />
        <span className="selection-bar__label">Delete permanently</span>
      </Button>
      {asking && (
        <ConfirmDialog
          title={n === 1 ? 'Delete this item permanently?' : `Delete ${n} items permanently?`}
          confirmLabel="Delete permanently"
          busyLabel="Deleting…"
          busy={del.isPending}
          error={del.error ? messageOf(del.error) : null}
          onCancel={() => setAsking(false)}
          onConfirm={() =>
            del.mutate(ids, {
              onSuccess: (o) => {
                setAsking(false);
                report(o);
                onDone();
              },
            })
          }
        >
          <p>{name ? `“${name}” will be removed` : n === 1 ? 'The item will be removed' : `These ${n} items will be removed`} from the household’s folder and from Hearth. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** Above the Trash's grid: how long items stay, and "Empty trash". */
export function TrashToolbar() {
  const summary = useTrashSummary();
  const [asking, setAsking] = useState(false);
  const empty = useEmptyTrash();
  const report = useReport();
  const s = summary.data;
  if (!s) return null;
  return (
    <div className="trash-toolbar">
      <p className="trash-toolbar__retention">{retentionSentence(s.retention_days)}</p>
      {s.count > 0 && (
        <Button variant="danger" onClick={() => (empty.reset(), setAsking(true))}>
          Empty trash
        </Button>
      )}
      {asking && (
        <ConfirmDialog
          title={`Empty the Trash: delete ${files(s.count)} permanently?`}
          confirmLabel={`Delete ${files(s.count)}`}
          busyLabel="Deleting…"
          busy={empty.isPending}
          error={empty.error ? messageOf(empty.error) : null}
          onCancel={() => setAsking(false)}
          onConfirm={() =>
            empty.mutate(s.count, {
              onSuccess: (o) => {
                setAsking(false);
                report(o);
              },
              // The Trash changed meanwhile (trash_changed): the refreshed count shows in the dialog.
              onError: () => void summary.refetch(),
            })
          }
        >
          <p>
            {s.count === 1 ? 'The file in the Trash is' : `All ${s.count.toLocaleString()} files in the Trash are`} removed from the household’s folder and from Hearth. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

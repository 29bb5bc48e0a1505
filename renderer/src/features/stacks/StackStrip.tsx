/**
 * The viewer's strip of a stack's members: small thumbnails to switch between them (the shown one is
 * marked), and "Remove from stack" for the shown member. It follows the stack of the item the viewer
 * was opened on, so switching members does not change which stack is listed.
 */
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { Thumbnail } from '../../photos/Thumbnail';
import { StackIcon } from '../../photos/StackIcon';
import { useAssetStack, useRemoveFromStack } from './stacks-api';
import './stacks.css';

interface StackStripProps {
  /** An asset of the stack to list (the viewer's item). */
  assetId: string;
  /** The member on screen. */
  shownId: string;
  onShow: (assetId: string) => void;
  /** The shown member left the stack. */
  onRemoved: (assetId: string) => void;
}

export function StackStrip({ assetId, shownId, onShow, onRemoved }: StackStripProps) {
  const stack = useAssetStack(assetId);
  const remove = useRemoveFromStack();
  const s = stack.data;
  if (!s) return null;
  const n = s.members.length;

  return (
    <section className="stack-strip" aria-label="Stack">
      <span className="stack-strip__title">
        <StackIcon size={16} /> {s.stack_kind === 'burst' ? `Burst of ${n}` : `Stack of ${n}`}
      </span>
      <ul className="stack-strip__list" aria-label="Photos in this stack">
        {s.members.map((m, i) => {
          const current = m.primary_asset_id === shownId;
          const cover = m.media_item_id === s.cover_media_item_id;
          return (
            <li key={m.media_item_id}>
              <button
                type="button"
                className={current ? 'stack-strip__member stack-strip__member--current' : 'stack-strip__member'}
                aria-label={`Photo ${i + 1} of ${n}${cover ? ' (cover)' : ''}`}
                aria-current={current || undefined}
                onClick={() => onShow(m.primary_asset_id)}
              >
                <Thumbnail assetId={m.primary_asset_id} size="small" alt="" className="stack-strip__image" fallback={<span className="stack-strip__blank" />} />
              </button>
            </li>
          );
        })}
      </ul>
      <Button
        variant="quiet"
        busy={remove.isPending}
        busyLabel="Removing…"
        onClick={() =>
          // Not mutate's onSuccess: the refreshed list may unmount this strip (its stack dissolved)
          // before that would run, and the viewer must still hear of it.
          void remove.mutateAsync(shownId).then(
            () => onRemoved(shownId),
            () => undefined, // shown through remove.error
          )
        }
        title="The photo stays in the library, on its own"
      >
        Remove from stack
      </Button>
      {remove.isError && (
        <p className="stack-strip__error" role="alert">
          {messageOf(remove.error)}
        </p>
      )}
    </section>
  );
}

/**
 * The frame of the sharing dialogs: a modal <dialog> (focus moves in and back, the page behind is
 * inert, Esc closes) with a heading and a Close button. Full screen on a phone, a card on a desktop
 * (sharing.css).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Icon } from '../../components/Icon';
import './sharing.css';

export function SharingDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} className="share-dialog" aria-labelledby={headingId} onClose={onClose} onCancel={onClose}>
      <div className="share-dialog__head">
        <h2 id={headingId}>{title}</h2>
        <button type="button" className="button button--quiet" aria-label="Close" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div className="share-dialog__body">{children}</div>
    </dialog>
  );
}

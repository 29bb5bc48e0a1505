/**
 * The menu of one face box in the viewer (FaceBoxes.tsx): whose face it is (a link to their page), "Not
 * this person" (rejectFace: the face leaves them and never joins them again by itself), and "This is…"
 * (assignFace: to another of the caller's people, or to someone new). A face with no one has only "This
 * is…".
 *
 * Drawn in the viewer's dialog rather than inside the zoomed photo, fixed beside the box: the photo's
 * transform would scale it and its overflow would cut it, and on a phone the details sheet covers the
 * lower part of the photo (the menu sits above the sheet). Escape or a press elsewhere closes it; focus
 * moves into it and back to the box after.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { useFaceCorrection, usePeople } from './people-api';
import { faceName, flattenPeople, personLabel, type Face } from './people-facts';
import { personPath } from './people-path';

const NEW_PERSON = 'new';
const MARGIN = 8;

interface FaceMenuProps {
  assetId: string;
  face: Face;
  anchor: HTMLElement;
  onClose: () => void;
}

export function FaceMenu({ assetId, face, anchor, onClose }: FaceMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<React.CSSProperties>({ visibility: 'hidden' });
  const { assign, reject } = useFaceCorrection(assetId);
  const people = flattenPeople(usePeople(false).data?.pages).filter((p) => p.person_id !== face.person_id);
  const [choice, setChoice] = useState('');
  const name = faceName(face);
  const busy = assign.isPending || reject.isPending;
  const error = assign.error ?? reject.error;

  // Beside the box: below it, or above when there is more room there; never off the screen.
  useLayoutEffect(() => {
    const r = anchor.getBoundingClientRect();
    const m = menu.current?.getBoundingClientRect();
    const w = m?.width ?? 256;
    const h = m?.height ?? 200;
    const below = window.innerHeight - r.bottom >= h + MARGIN || r.top < window.innerHeight - r.bottom;
    const top = below ? Math.min(r.bottom + MARGIN, window.innerHeight - h - MARGIN) : Math.max(MARGIN, r.top - h - MARGIN);
    const left = Math.min(Math.max(MARGIN, r.left + r.width / 2 - w / 2), window.innerWidth - w - MARGIN);
    setPlace({ top: Math.max(MARGIN, top), left: Math.max(MARGIN, left) });
  }, [anchor, people.length, error]);

  useEffect(() => {
    menu.current?.querySelector<HTMLElement>('a, button, select')?.focus();
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !anchor.contains(t)) onClose();
    };
    document.addEventListener('pointerdown', onDown, true);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      if (anchor.isConnected) anchor.focus();
    };
  }, [anchor, onClose]);

  const host = anchor.closest('dialog') ?? document.body;
  return createPortal(
    <div
      ref={menu}
      className="face-menu"
      role="dialog"
      aria-label={`Face: ${name}`}
      style={place}
      // Inside the viewer's stage in React's tree: its pan and swipe must not see these presses.
      onPointerDown={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        // The viewer's own Escape (close) waits for the next one.
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }}
    >
      <p className="face-menu__who">
        {face.person_id !== null ? (
          <Link to={personPath(face.person_id)}>
            {name}
          </Link>
        ) : (
          name
        )}
      </p>
      {face.person_id !== null && (
        <Button variant="secondary" busy={reject.isPending} busyLabel="Taking it away…" disabled={busy} onClick={() => reject.mutate(face.face_id, { onSuccess: onClose })}>
          Not this person
        </Button>
      )}
      <form
        className="face-menu__assign"
        onSubmit={(e) => {
          e.preventDefault();
          if (!choice) return;
          assign.mutate({ faceId: face.face_id, personId: choice === NEW_PERSON ? null : Number(choice) }, { onSuccess: onClose });
        }}
      >
        <label>
          <span>This is…</span>
          <select value={choice} onChange={(e) => setChoice(e.target.value)} disabled={busy}>
            <option value="">Choose a person</option>
            {people.map((p) => (
              <option key={p.person_id} value={p.person_id}>
                {personLabel(p)}
              </option>
            ))}
            <option value={NEW_PERSON}>Someone new</option>
          </select>
        </label>
        <Button type="submit" variant="secondary" disabled={!choice || busy} busy={assign.isPending} busyLabel="Moving…">
          Move face
        </Button>
      </form>
      {error && (
        <p className="field__error" role="alert">
          {messageOf(error)}
        </p>
      )}
      <Button variant="quiet" className="button--small" onClick={onClose}>
        Close
      </Button>
    </div>,
    host,
  );
}

/**
 * The faces found in a photo, boxed over it in the viewer while its details are open (getAsset with
 * include_faces: boxes normalised 0..1 to the upright photo). Laid over the picture's own rectangle like
 * the OCR box (search/OcrOverlay.tsx), inside the zoom's content, so the boxes zoom and pan with the photo.
 *
 * Each box is a button named after its person ("Anna", "Unnamed person", "Not recognised"); the name sits
 * under it. Pressing it opens the face's menu (FaceMenu.tsx): the person's page, "Not this person" and
 * "This is…". A press on a box is the box's own: it neither pans the photo nor swipes to the next one.
 */
import { useRef, useState } from 'react';
import { usePictureRect } from '../../photos/use-picture-rect';
import { FaceMenu } from './FaceMenu';
import { useAssetFaces } from './people-api';
import { faceName } from './people-facts';
import './people.css';

const pct = (v: number) => `${(Math.min(1, Math.max(0, v)) * 100).toFixed(3)}%`;

export function FaceBoxes({ assetId }: { assetId: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const faces = useAssetFaces(assetId).data?.faces ?? [];
  const rect = usePictureRect(ref, faces.length > 0);
  const [open, setOpen] = useState<{ faceId: number; anchor: HTMLElement } | null>(null);
  const shown = faces.find((f) => f.face_id === open?.faceId);


  return (
    <div
      ref={ref}
      className="face-boxes"
      style={rect && rect.width > 0 ? { left: rect.left, top: rect.top, width: rect.width, height: rect.height } : { width: 0, height: 0 }}
    >
      {rect &&
        rect.width > 0 &&
        faces.map((f) => {
          const b = f.bounding_box;
          const name = faceName(f);
          return (
            <div key={f.face_id} className="face-box" style={{ left: pct(b.x), top: pct(b.y), width: pct(b.width), height: pct(b.height) }}>
              <button
                type="button"
                className="face-box__frame"
                aria-label={`Face: ${name}`}
                aria-haspopup="dialog"
                aria-expanded={open?.faceId === f.face_id}
                data-face-id={f.face_id}
                // The box is not the photo: no pan, no swipe, no double-tap zoom from here.
                onPointerDown={(e) => e.stopPropagation()}
                onDoubleClick={(e) => e.stopPropagation()}
                onClick={(e) => {
                  const anchor = e.currentTarget;
                  setOpen((o) => (o?.faceId === f.face_id ? null : { faceId: f.face_id, anchor }));
                }}
              />
              <span className="face-box__name" aria-hidden="true">
                {name}
              </span>
            </div>
          );
        })}
      {open && shown && <FaceMenu assetId={assetId} face={shown} anchor={open.anchor} onClose={() => setOpen(null)} />}
    </div>
  );
}

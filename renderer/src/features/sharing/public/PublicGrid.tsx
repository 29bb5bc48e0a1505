/**
 * The link's photos in justified rows: each tile grows in proportion to its photo's shape, so rows
 * fill the width without cropping much (flexbox does the layout; a filler keeps the last row from
 * stretching). A link holds at most a thousand photos, so no virtualisation is needed.
 */
import { formatDuration } from '../../../lib/format';
import type { SharedPhoto } from './public-api';
import { linkUrls } from './public-api';

const ROW_HEIGHT = 180;

const ratioOf = (p: SharedPhoto) => (p.width && p.height ? Math.min(3, Math.max(0.4, p.width / p.height)) : 1);

export function PublicGrid(props: { photos: readonly SharedPhoto[]; linkKey: string; token: string | null; onOpen: (photo: SharedPhoto) => void }) {
  if (props.photos.length === 0) return null;
  return (
    <ul className="public-grid" aria-label="Photos">
      {props.photos.map((p) => {
        const ratio = ratioOf(p);
        return (
          <li key={p.photo_id} className="public-grid__cell" style={{ flexGrow: ratio, flexBasis: `calc(${ratio} * var(--public-row, ${ROW_HEIGHT}px))` }}>
            <button type="button" className="public-grid__tile" aria-label={`${p.type === 'VIDEO' ? 'Video' : 'Photo'} ${p.file_name}`} onClick={() => props.onOpen(p)}>
              <span className="public-grid__shape" style={{ paddingBottom: `${100 / ratio}%` }} />
              <img src={linkUrls.thumbnail(props.linkKey, p.photo_id, 'small', props.token)} alt="" loading="lazy" decoding="async" draggable={false} />
              {p.type === 'VIDEO' && (
                <span className="tile__badge tile__badge--video" aria-hidden="true">
                  ▶ {formatDuration(p.duration)}
                </span>
              )}
            </button>
          </li>
        );
      })}
      <li className="public-grid__filler" aria-hidden="true" />
    </ul>
  );
}

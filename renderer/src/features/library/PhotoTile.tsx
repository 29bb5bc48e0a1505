/** One square of the photo grid: the thumbnail with badges for videos (duration) and failures. */
import { Icon } from '../../components/Icon';
import { formatDuration } from '../../lib/format';
import type { GalleryItem } from './library-api';
import { Thumbnail } from './Thumbnail';

export function PhotoTile({ item, onOpen }: { item: GalleryItem; onOpen: () => void }) {
  const asset = item.media_item.primary_asset;
  const failed = asset.state === 'failed';
  const processing = asset.state === 'pending' || asset.state === 'processing';
  const isVideo = asset.type === 'VIDEO';
  const duration = isVideo ? formatDuration(asset.duration) : '';
  const label = [
    asset.original_filename,
    isVideo ? `video${duration ? ` ${duration}` : ''}` : null,
    failed ? `could not be processed${asset.last_error ? `: ${asset.last_error}` : ''}` : null,
    processing ? 'still being processed' : null,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <li className="grid__cell">
      <button
        type="button"
        className={['tile', failed ? 'tile--failed' : '', processing ? 'tile--processing' : ''].filter(Boolean).join(' ')}
        onClick={onOpen}
        aria-label={label}
        title={failed ? `${asset.original_filename}: ${asset.last_error ?? 'processing failed'}` : asset.original_filename}
      >
        <Thumbnail
          key={`${asset.asset_id}:${asset.state}`}
          assetId={asset.asset_id}
          size="small"
          alt=""
          className="tile__image"
          fallback={
            <span className="tile__placeholder" aria-hidden="true">
              <Icon name={failed ? 'alert' : isVideo ? 'play' : 'photos'} size={28} />
              <span>{processing ? 'Processing…' : 'No preview'}</span>
            </span>
          }
        />
        {isVideo && (
          <span className="tile__badge tile__badge--video" aria-hidden="true">
            <Icon name="play" size={14} />
            {duration}
          </span>
        )}
        {failed && (
          <span className="tile__badge tile__badge--failed" aria-hidden="true">
            <Icon name="alert" size={14} />
            Failed
          </span>
        )}
      </button>
    </li>
  );
}

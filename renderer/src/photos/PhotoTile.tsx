/**
 * One square of the photo grid: the thumbnail with badges for videos (duration), favourites, stacks
 * and failures, and a selection check. While something is selected, a click toggles selection
 * instead of opening (as in every phone gallery); shift-click selects a range. On touch, a long
 * press selects the tile (and so starts selecting; later taps add or remove). The check shows on
 * hover with a mouse, and on touch only once selecting has started; where it shows, the Live, RAW
 * and Failed badges move aside so it never covers them (library.css).
 * A row standing for a stack (stacks collapsed) shows the member count; with stacks expanded, a
 * member shows the stack sign alone, so it is clear it belongs to one.
 * A live photo shows "Live" and plays its motion while the mouse rests on it (LiveMotion.tsx); an item
 * with a RAW file shows "RAW" (the viewer gives access to the RAW itself).
 * A search result (an item with `match`) shows why it matched (search/TileWhy.tsx, through viewer-slots.tsx).
 *
 * A file that could not be processed (a damaged photo: cut short, unreadable) tells one story, the
 * same wherever it shows (the owner's grid, a partner's timeline that shows the owner's library, an
 * album): "Can't be shown", with the server's reason in its name and title; the viewer says the same
 * and offers its owner to try again or move it to the Trash. Such a tile asks for no thumbnail at all:
 * the server has none for a failed file (404 thumbnail_failed), and the grid's tiles come and go as it
 * scrolls (issue 24 counted 45 requests for one). Decision: the partner sees the tile too, read-only,
 * rather than the file hidden from them: the share is of the library as it is, and a hidden file
 * would make the partner's count and the owner's disagree.
 */
import { useEffect } from 'react';
import { Icon } from '../components/Icon';
import { formatDuration } from '../lib/format';
import { StackIcon } from './StackIcon';
import { LiveMotionClip, useHoverIntent } from './LiveMotion';
import { hasRaw, isLive } from './media-item';
import { isProcessing, waitsForTool } from './asset-state';
import type { GalleryItem } from './library-api';
import { failedThumbnails } from './failed-thumbnails';
import { Thumbnail } from './Thumbnail';
import { matchOf, whyLine } from './match';
import { gridSlots } from './viewer-slots';
import { useLongPress } from '../lib/use-long-press';

interface PhotoTileProps {
  item: GalleryItem;
  onOpen: () => void;
  selected?: boolean;
  /** Something is selected: clicks select rather than open. */
  selecting?: boolean;
  onToggleSelect?: ((range: boolean) => void) | undefined;
  style?: React.CSSProperties;
  /** Leave the thumbnail out for now (the grid is being flung past this tile; see fling-detector.ts). */
  deferImage?: boolean;
  /** The tile's place in its grid, for keyboard movement (use-grid-keys.ts). */
  gridIndex?: number;
  /** In a grid only one tile is in the Tab order (a roving tabindex, use-grid-keys.ts). */
  tabbable?: boolean;
  /** Drawn first inside the list item (the timeline puts a day's heading there). */
  before?: React.ReactNode;
}

export function PhotoTile({ item, onOpen, selected = false, selecting = false, onToggleSelect, style, deferImage = false, gridIndex, tabbable = true, before }: PhotoTileProps) {
  const inGrid = gridIndex !== undefined;
  const asset = item.media_item.primary_asset;
  const { swallowClick, handlers: pressHandlers } = useLongPress(onToggleSelect && !selected ? () => onToggleSelect(false) : undefined);
  const failed = asset.state === 'failed';
  const processing = isProcessing(asset);
  const waiting = waitsForTool(asset);
  const isVideo = asset.type === 'VIDEO';
  // Processed again: a thumbnail that failed before may come now.
  useEffect(() => {
    if (processing) failedThumbnails.forget(asset.asset_id);
  }, [processing, asset.asset_id]);
  const isAudio = asset.type === 'AUDIO';
  const duration = isVideo || isAudio ? formatDuration(asset.duration) : '';
  const stackSize = item.stack?.members.length ?? 0;
  const memberOf = stackSize > 1 ? 0 : (item.media_item.stack?.member_count ?? 0);
  const live = isLive(item);
  const raw = hasRaw(item);
  const hover = useHoverIntent(live && !selecting);
  // A partner's photo, or (in a shared album) who added it: their initials on the tile.
  const owner = item.media_item.owner;
  const match = matchOf(item);
  const { OwnerChip, TileWhy } = gridSlots();
  const label = [
    asset.original_filename,
    owner ? `from ${owner.display_name}` : null,
    isVideo ? `video${duration ? ` ${duration}` : ''}` : null,
    isAudio ? `audio${duration ? ` ${duration}` : ''}` : null,
    live ? 'live photo' : null,
    raw ? 'with RAW' : null,
    asset.liked ? 'favourite' : null,
    stackSize > 1 ? `stack of ${stackSize}` : null,
    memberOf > 1 ? `in a stack of ${memberOf}` : null,
    failed ? `can't be shown${asset.last_error ? `: ${asset.last_error}` : ''}` : null,
    processing ? 'still being processed' : null,
    waiting ? 'waiting for the video tools' : null,
    match ? `matches: ${whyLine(match)}` : null,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <div className={['grid__cell', selected ? 'grid__cell--selected' : ''].filter(Boolean).join(' ')} role="listitem" style={style} data-index={gridIndex}>
      {before}
      <button
        type="button"
        tabIndex={tabbable ? 0 : -1}
        className={['tile', failed ? 'tile--failed' : '', processing ? 'tile--processing' : ''].filter(Boolean).join(' ')}
        {...pressHandlers}
        {...hover.handlers}
        onClick={(e) => {
          if (swallowClick()) return;
          if ((selecting || e.shiftKey || e.ctrlKey || e.metaKey) && onToggleSelect) onToggleSelect(e.shiftKey);
          else onOpen();
        }}
        aria-label={label}
        aria-pressed={selecting ? selected : undefined}
        title={failed ? `${asset.original_filename}: can't be shown. ${asset.last_error ?? ''}`.trim() : waiting ? `${asset.original_filename}: ${asset.last_error ?? 'waiting for the video tools'}` : asset.original_filename}
      >
        {failed ? (
          <span className="tile__placeholder" aria-hidden="true">
            <Icon name="alert" size={28} />
            <span>Can't be shown</span>
          </span>
        ) : (
          <Thumbnail
            key={`${asset.asset_id}:${asset.state}`}
            assetId={asset.asset_id}
            size="small"
            alt=""
            className="tile__image"
            defer={deferImage}
            fallback={
              <span className="tile__placeholder" aria-hidden="true">
                <Icon name={isVideo ? 'play' : 'photos'} size={28} />
                <span>{processing ? 'Processing…' : isAudio ? 'Audio' : 'No preview'}</span>
              </span>
            }
          />
        )}
        {hover.hovering && <LiveMotionClip stillId={asset.asset_id} className="tile__motion" muted onEnded={hover.stop} />}
        {(live || raw) && (
          <span className="tile__kinds" aria-hidden="true">
            {live && (
              <span className="tile__kind">
                <Icon name="live" size={13} />
                Live
              </span>
            )}
            {raw && <span className="tile__kind">RAW</span>}
          </span>
        )}
        {(isVideo || isAudio) && (
          <span className="tile__badge tile__badge--video" aria-hidden="true">
            <Icon name="play" size={14} />
            {duration}
          </span>
        )}
        {asset.liked && (
          <span className="tile__badge tile__badge--liked" aria-hidden="true">
            <Icon name="heart" size={14} />
          </span>
        )}
        {(stackSize > 1 || memberOf > 1) && (
          <span className="tile__badge tile__badge--stack" aria-hidden="true">
            <StackIcon />
            {stackSize > 1 ? stackSize : null}
          </span>
        )}
        {owner && OwnerChip && <OwnerChip person={owner} belowStack={stackSize > 1 || memberOf > 1} />}
      </button>
      {onToggleSelect && (
        <input
          type="checkbox"
          className="tile__check"
          checked={selected}
          aria-label={`Select ${asset.original_filename}`}
          // In a grid, Space on the tile selects: the check stays out of the Tab order (it would double every stop).
          tabIndex={inGrid ? -1 : undefined}
          onChange={(e) => onToggleSelect((e.nativeEvent as MouseEvent).shiftKey ?? false)}
        />
      )}
      {match && TileWhy && <TileWhy match={match} name={asset.original_filename} />}
    </div>
  );
}

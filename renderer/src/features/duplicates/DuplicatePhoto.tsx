/**
 * One photo of a duplicate group: its thumbnail with size, resolution and date underneath, and whether
 * it is the one to keep. The whole tile is the radio button "Keep <name>" (a big tap target on a
 * phone); a separate button opens the photo full size in the viewer, since a small thumbnail does not
 * show which copy is sharper.
 */
import { Icon } from '../../components/Icon';
import { formatCaptureTimeShort } from '../../lib/capture-time';
import { formatBytes, formatDateTime } from '../../lib/format';
import { Thumbnail } from '../../photos/Thumbnail';
import { resolutionOf, type DuplicateMember } from './group-facts';

interface DuplicatePhotoProps {
  member: DuplicateMember;
  /** Its accessible name in the group (group-facts.ts photoName). */
  name: string;
  radioGroup: string;
  keeper: boolean;
  recommended: boolean;
  disabled: boolean;
  onChoose: () => void;
  onOpen: () => void;
}

export function DuplicatePhoto({ member, name, radioGroup, keeper, recommended, disabled, onChoose, onOpen }: DuplicatePhotoProps) {
  const { asset, file_size: size } = member;
  const date = formatCaptureTimeShort(asset) || formatDateTime(asset.upload_time);
  return (
    <li className="dup-photo" data-keeper={keeper ? 'true' : 'false'}>
      <label className="dup-photo__pick">
        <input
          type="radio"
          className="dup-photo__radio"
          name={radioGroup}
          checked={keeper}
          disabled={disabled}
          onChange={onChoose}
          aria-label={`Keep ${name}`}
        />
        <span className="dup-photo__frame">
          <Thumbnail
            assetId={asset.asset_id}
            size="medium"
            alt=""
            className="dup-photo__img"
            fallback={<span className="dup-photo__none">{asset.state === 'ready' ? 'No preview' : 'Processing…'}</span>}
          />
          {keeper && <span className="dup-photo__badge">Keep</span>}
        </span>
        <span className="dup-photo__facts">
          <span className="dup-photo__name">{asset.original_filename}</span>
          {asset.folder_path && <span className="dup-photo__folder">{asset.folder_path}</span>}
          <span>
            {formatBytes(size)} · {resolutionOf(asset)}
          </span>
          {date && <span>{date}</span>}
          {recommended && <span className="dup-photo__suggested">Suggested keeper</span>}
          {asset.is_deleted && <span>In the Trash</span>}
        </span>
      </label>
      <button type="button" className="dup-photo__open" onClick={onOpen} aria-label={`View ${name} full size`}>
        <Icon name="image" size={20} />
      </button>
    </li>
  );
}

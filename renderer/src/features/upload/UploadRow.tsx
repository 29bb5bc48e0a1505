/**
 * One file of the upload queue: a thumbnail of the file itself (the local file's object URL for a
 * picture the browser can show; an icon for a video, a sound, or a picture it cannot, like HEIC or
 * RAW), name, size, a progress bar and its state in words: why it failed in plain words
 * (plain-words.ts), "Already in your library" for a file that was not sent, and Retry where trying
 * again can help.
 */
import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes } from '../../lib/format';
import { isFinished, type UploadItem } from './upload-queue';

function stateText(item: UploadItem, percent: number): string {
  switch (item.state) {
    case 'paused':
      return item.message ?? 'Paused: add the file again to resume.';
    case 'waiting':
      return 'Waiting';
    case 'checking':
      return 'Checking whether it is already in your library…';
    case 'uploading':
      return `Uploading ${percent}%`;
    case 'processing':
      return 'Processing…';
    case 'done':
      return 'Done';
    case 'duplicate':
      return item.message ?? 'Already in your library.';
    case 'restored':
      return item.message ?? 'Restored from your Trash.';
    case 'failed':
      return `${item.message ?? 'The upload did not work.'}${item.needsFile ? ' Add the file again to retry.' : ''}`;
  }
}

type Kind = 'image' | 'video' | 'audio' | 'other';

function kindOf(file: File | null, name: string): Kind {
  const type = file?.type ?? '';
  if (type.startsWith('video/') || /\.(mp4|mov|m4v|mts|m2ts|avi|mkv|webm|3gp)$/i.test(name)) return 'video';
  if (type.startsWith('audio/') || /\.(mp3|m4a|wav|flac|aac|ogg)$/i.test(name)) return 'audio';
  if (type.startsWith('image/') || /\.(jpe?g|png|gif|webp|avif|bmp|heic|heif|dng|nef|cr2|cr3|arw|raf|rw2|orf|tiff?)$/i.test(name)) return 'image';
  return 'other';
}

/** The local file as a picture, while it is at hand; the URL is given back when the row goes. */
function useObjectUrl(file: File | null, wanted: boolean): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || !wanted) return;
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => {
      URL.revokeObjectURL(u);
      setUrl(null);
    };
  }, [file, wanted]);
  return url;
}

function FileThumb({ item }: { item: UploadItem }) {
  const kind = kindOf(item.file, item.name);
  // A file the server found damaged (cut short, unreadable) is told one way: not a picture beside
  // "cannot be shown" (a browser draws what it can of a cut-short JPEG), but the same sign as its tile.
  // (The server may say so in the upload's own answer or in its receipt: the code tells, whichever.)
  if (item.state === 'failed' && item.code === 'processing_failed' && !item.canRetry) {
    return (
      <span className="upload-row__thumb upload-row__thumb--failed" aria-hidden="true">
        <Icon name="alert" size={20} />
      </span>
    );
  }
  return <LocalThumb item={item} kind={kind} />;
}

function LocalThumb({ item, kind }: { item: UploadItem; kind: Kind }) {
  const [broken, setBroken] = useState(false);
  const url = useObjectUrl(item.file, kind === 'image' && !broken);
  return (
    <span className={`upload-row__thumb upload-row__thumb--${kind}`} aria-hidden="true">
      {url ? (
        <img src={url} alt="" loading="lazy" decoding="async" onError={() => setBroken(true)} />
      ) : (
        <Icon name={kind === 'video' ? 'play' : kind === 'image' ? 'photos' : kind === 'audio' ? 'play' : 'upload'} size={20} />
      )}
    </span>
  );
}

export function UploadRow({ item, onRetry, onForget }: { item: UploadItem; onRetry: () => void; onForget: () => void }) {
  const percent = item.size ? Math.floor((item.bytesSent / item.size) * 100) : item.state === 'uploading' ? 0 : 100;
  const shown = isFinished(item.state) || item.state === 'processing' ? 100 : percent;
  return (
    <li className={`upload-row upload-row--${item.state}`} aria-label={item.name}>
      <FileThumb item={item} />
      <div className="upload-row__body">
        <div className="upload-row__top">
          <span className="upload-row__name" title={item.path}>
            {item.path}
          </span>
          <span className="upload-row__size">{formatBytes(item.size)}</span>
        </div>
        <ProgressBar value={shown} label={`Progress of ${item.name}`} />
        <div className="upload-row__bottom">
          <span className="upload-row__state" data-state={item.state} role={item.state === 'failed' ? 'alert' : undefined}>
            {stateText(item, percent)}
          </span>
          <span className="upload-row__actions">
            {item.canRetry && (
              <Button variant="secondary" className="button--small" onClick={onRetry} aria-label={`Retry ${item.name}`}>
                Retry
              </Button>
            )}
            {(item.state === 'paused' || (item.state === 'failed' && !item.canRetry)) && (
              <Button variant="quiet" className="button--small" onClick={onForget} aria-label={`Remove ${item.name} from the list`}>
                Remove
              </Button>
            )}
          </span>
        </div>
      </div>
    </li>
  );
}

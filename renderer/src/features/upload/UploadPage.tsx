/**
 * Upload: drop files or folders, or pick them; each file shows a thumbnail, its own progress and
 * state, with the reason in plain words and a Retry button when it fails; failures are listed first,
 * and files already in the library are not sent (precheck.ts). Uploads go on while the person visits other pages, and
 * after a reload the unfinished ones wait for their file to be added again (see upload-queue.ts).
 * A touch-only device (TOUCH_ONLY: a phone, a tablet) cannot drop files, so there the surface says
 * "tap to choose" instead of "drop here".
 */
import { useCallback, useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes } from '../../lib/format';
import { useFileDrop } from '../../lib/use-file-drop';
import { TOUCH_ONLY, useMediaQuery } from '../../lib/use-media-query';
import { libraryKeys } from '../../photos/library-api';
import { filesFromDrop, filterFolderFiles } from './pick-files';
import { isFinished, type UploadItem } from './upload-queue';
import { UploadRow } from './UploadRow';
import { useUploadSettled, useUploads } from './use-uploads';
import './upload.css';

export function UploadPage() {
  const { queue, items } = useUploads();
  const queryClient = useQueryClient();
  const [note, setNote] = useState<string | null>(null);
  const filesInput = useRef<HTMLInputElement>(null);
  const ids = { files: useId(), folder: useId() };
  const touchOnly = useMediaQuery(TOUCH_ONLY);

  const onSettled = useCallback(() => void queryClient.invalidateQueries({ queryKey: libraryKeys.all }), [queryClient]);
  useUploadSettled(onSettled);

  const add = (files: File[], skipped = 0) => {
    if (!queue) return;
    setNote(skipped ? `${skipped} ${skipped === 1 ? 'file was' : 'files were'} left out: not photos, videos or audio.` : null);
    if (files.length) queue.add(files);
  };

  const { dragging, targetProps } = useFileDrop((data) => void filesFromDrop(data).then(add));

  const active = items.filter((i) => !(i.state === 'paused' || (i.needsFile && i.state === 'failed')));
  const totalBytes = active.reduce((s, i) => s + i.size, 0);
  const sentBytes = active.reduce((s, i) => s + i.bytesSent, 0);
  const finished = active.filter((i) => isFinished(i.state)).length;
  const failed = active.filter((i) => i.state === 'failed').length;
  const busy = active.some((i) => i.state === 'waiting' || i.state === 'checking' || i.state === 'uploading' || i.state === 'processing');
  // Failures first: what needs the person's attention is at the top, not somewhere in a long list.
  const listed = [...items.filter((i) => i.state === 'failed'), ...items.filter((i) => i.state !== 'failed')];
  const retryable = items.filter((i) => i.state === 'failed' && i.canRetry).length;
  const skipped = items.filter((i) => i.state === 'duplicate').length;
  const percent = totalBytes ? Math.floor((sentBytes / totalBytes) * 100) : 0;
  const paused = items.filter((i) => i.state === 'paused');

  return (
    <>
      <PageHeader title="Upload">
        <p>Add photos and videos from this device. They go to your library and appear in Photos once they are processed.</p>
      </PageHeader>

      <div className="upload">
        <section
          className={['dropzone', dragging ? 'dropzone--active' : ''].filter(Boolean).join(' ')}
          aria-label="Add files"
          {...targetProps}
        >
          <div className="dropzone__icon">
            <Icon name="upload" size={30} />
          </div>
          {touchOnly ? (
            <>
              <p className="dropzone__title">Add photos and videos</p>
              <p className="dropzone__hint">Tap to choose them from this device</p>
            </>
          ) : (
            <>
              <p className="dropzone__title">Drop photos, videos or folders here</p>
              <p className="dropzone__hint">or choose them from this device</p>
            </>
          )}
          <div className="button-row dropzone__buttons">
            <label className="button button--primary file-button" htmlFor={ids.files}>
              Choose files
            </label>
            <input
              ref={filesInput}
              id={ids.files}
              className="visually-hidden"
              type="file"
              multiple
              accept="image/*,video/*,audio/*,.heic,.heif,.dng,.nef,.cr2,.cr3,.arw,.raf,.rw2,.orf,.mts,.m2ts"
              onChange={(e) => {
                add([...(e.target.files ?? [])]);
                e.target.value = '';
              }}
            />
            <label className="button button--secondary file-button" htmlFor={ids.folder}>
              Choose a folder
            </label>
            <input
              id={ids.folder}
              className="visually-hidden"
              type="file"
              multiple
              ref={(el) => el?.setAttribute('webkitdirectory', '')}
              onChange={(e) => {
                const { files, skipped } = filterFolderFiles([...(e.target.files ?? [])]);
                add(files, skipped);
                e.target.value = '';
              }}
            />
          </div>
          {note && (
            <p className="field__hint" role="status">
              {note}
            </p>
          )}
        </section>

        {paused.length > 0 && (
          <div className="notice notice--info" role="status">
            {paused.length === 1 ? 'One upload was interrupted' : `${paused.length} uploads were interrupted`} before it finished. Add the same{' '}
            {paused.length === 1 ? 'file' : 'files'} again to resume: only the missing parts are sent.
          </div>
        )}

        {active.length > 0 && (
          <section className="card upload-summary" aria-label="Overall progress">
            <div className="upload-summary__line">
              <strong>
                {busy ? `Uploading ${active.length === 1 ? '1 file' : `${active.length} files`}` : 'Uploads finished'}
              </strong>
              <span>
                {finished} of {active.length} done{skipped ? ` (${skipped} already in your library)` : ''}
                {failed ? `, ${failed} failed` : ''} · {formatBytes(sentBytes)} of {formatBytes(totalBytes)}
              </span>
            </div>
            <ProgressBar value={percent} label="Overall progress" />
            {!busy && finished > 0 && (
              <p>
                <Link to="/">See them in Photos</Link>
              </p>
            )}
          </section>
        )}

        {items.length > 0 && (
          <section className="card upload-queue" aria-labelledby="queue-heading">
            <div className="upload-queue__head">
              <h2 className="card__title" id="queue-heading">
                Files
              </h2>
              <span className="button-row">
                {retryable > 1 && (
                  <Button variant="secondary" onClick={() => queue?.retryFailed()}>
                    Retry failed
                  </Button>
                )}
                {items.some((i) => isFinished(i.state)) && (
                  <Button variant="quiet" onClick={() => queue?.clearFinished()}>
                    Clear finished
                  </Button>
                )}
              </span>
            </div>
            <ul className="upload-list" aria-label="Upload queue">
              {listed.map((item: UploadItem) => (
                <UploadRow key={item.id} item={item} onRetry={() => queue?.retry(item.id)} onForget={() => queue?.forget(item.id)} />
              ))}
            </ul>
          </section>
        )}
      </div>
    </>
  );
}

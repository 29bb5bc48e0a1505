/**
 * Where Takeout parts are added: dropped on a computer, chosen from the device anywhere (a phone cannot drop, so
 * there it says "tap to choose"). Several parts at once; files not named like a Takeout part are left out with a
 * note, before anything is sent.
 */
import { useId, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useFileDrop } from '../../lib/use-file-drop';
import { TOUCH_ONLY, useMediaQuery } from '../../lib/use-media-query';
import { TAKEOUT_PART } from './takeout-queue';

export function TakeoutDropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const [note, setNote] = useState<string | null>(null);
  const inputId = useId();
  const touchOnly = useMediaQuery(TOUCH_ONLY);

  const add = (files: File[]) => {
    const parts = files.filter((f) => TAKEOUT_PART.test(f.name));
    const left = files.filter((f) => !TAKEOUT_PART.test(f.name)).map((f) => f.name);
    setNote(left.length ? `Left out, not Takeout parts (takeout-….zip or .tgz): ${left.join(', ')}.` : null);
    if (parts.length) onFiles(parts);
  };

  const { dragging, targetProps } = useFileDrop((data) => add([...data.files]));

  return (
    <section
      className={['takeout-drop', dragging ? 'takeout-drop--active' : ''].filter(Boolean).join(' ')}
      aria-label="Add Takeout parts"
      {...targetProps}
    >
      <span className="takeout-drop__icon">
        <Icon name="upload" size={26} />
      </span>
      <p className="takeout-drop__title">{touchOnly ? 'Add the parts of your export' : 'Drop the parts of your export here'}</p>
      <p className="takeout-drop__hint">{touchOnly ? 'Tap to choose them (takeout-….zip or .tgz).' : 'or choose them (takeout-….zip or .tgz). Several at once is fine.'}</p>
      <label className="button button--primary takeout-drop__button" htmlFor={inputId}>
        Choose Takeout files
      </label>
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        multiple
        accept=".zip,.tgz,.gz,application/zip,application/gzip,application/x-gzip,application/x-tar"
        onChange={(e) => {
          add([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {note && (
        <p className="notice" role="status">
          {note}
        </p>
      )}
    </section>
  );
}

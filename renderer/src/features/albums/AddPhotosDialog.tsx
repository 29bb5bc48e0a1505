/**
 * "Add photos" from inside an album, in the library's photo picker (photos/PhotoPickerDialog.tsx).
 * The chosen ones are added at the end of the album in the order they were picked (decision: the picking
 * order is the one the person had in mind; "Reorder" changes it after), one request each with the progress
 * shown. If one is refused the rest stay picked, with the reason, so trying again adds only what is missing.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { libraryKeys } from '../../photos/library-api';
import { PhotoPickerDialog } from '../../photos/PhotoPickerDialog';
import { albumKeys } from './albums-api';

interface AddPhotosDialogProps {
  albumId: number;
  albumName: string;
  /** Assets already in the album (shown as such, not pickable). */
  memberIds: ReadonlySet<string>;
  onClose: () => void;
  /** After the chosen photos were added (how many). */
  onAdded: (count: number) => void;
}

export function AddPhotosDialog({ albumId, albumName, memberIds, onClose, onAdded }: AddPhotosDialogProps) {
  const queryClient = useQueryClient();
  const [picked, setPicked] = useState<string[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);

  const add = async () => {
    setError(null);
    const chosen = picked.slice();
    setProgress({ done: 0, total: chosen.length });
    const left = [...chosen];
    try {
      for (const assetId of chosen) {
        await request(api.POST('/api/v1/albums/{id}/assets/{assetId}', { params: { path: { id: albumId, assetId } }, body: {} }));
        left.shift();
        setProgress({ done: chosen.length - left.length, total: chosen.length });
      }
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
      setPicked(left);
      await queryClient.invalidateQueries({ queryKey: albumKeys.all });
      await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
    }
    if (left.length === 0) onAdded(chosen.length);
  };

  return (
    <PhotoPickerDialog
      title={`Add photos to “${albumName}”`}
      listKey="album-picker"
      memberIds={memberIds}
      memberMark="In album"
      memberLabel="already in the album"
      picked={picked}
      setPicked={setPicked}
      busy={progress !== null}
      status={progress && `Adding ${Math.min(progress.done + 1, progress.total)} of ${progress.total}…`}
      error={error}
      addLabel={(n) => (n <= 1 ? 'Add to album' : `Add ${n} to album`)}
      onAdd={() => void add()}
      onClose={onClose}
    />
  );
}

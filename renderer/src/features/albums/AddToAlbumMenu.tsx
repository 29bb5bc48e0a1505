/**
 * "Add to album" for a selection: pick one of the albums, or name a new one. A new name the member
 * already uses for an album of theirs asks first, offering that album instead (as "New album" does).
 * A toast says where the photos went, with Undo (takes out again only those this added).
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toast';
import { ownAlbumsNamed, refreshAlbums, removeEachFromAlbum, useAddToAlbum, useAlbums, useCreateAlbum, type Album } from './albums-api';

export function AddToAlbumMenu({ assetIds, onDone }: { assetIds: readonly string[]; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const albums = useAlbums();
  const add = useAddToAlbum();
  const create = useCreateAlbum();
  const [twin, setTwin] = useState<{ name: string; existing: Album } | null>(null);
  const [checking, setChecking] = useState(false);
  const busy = add.isPending || create.isPending || checking;
  const toast = useToast();
  const queryClient = useQueryClient();
  const addTo = (albumId: number, albumName: string) => {
    setTwin(null);
    add.mutate(
      { albumId, assetIds },
      {
        onSuccess: (added) => {
          setOpen(false);
          onDone();
          const n = added.length;
          toast.show({
            message: n === 0 ? `Already in “${albumName}”.` : `Added ${n === 1 ? '1 photo' : `${n} photos`} to “${albumName}”.`,
            undone: `Taken out of “${albumName}” again.`,
            undo: n
              ? async () => {
                  try {
                    await removeEachFromAlbum(albumId, added);
                  } finally {
                    await refreshAlbums(queryClient);
                  }
                }
              : undefined,
          });
        },
      },
    );
  };
  const createAndAdd = (albumName: string) => {
    setTwin(null);
    create.mutate({ album_name: albumName }, { onSuccess: (album) => addTo((album as { album_id: number }).album_id, albumName) });
  };
  const submit = async () => {
    const trimmed = name.trim();
    if (!trimmed || busy) return;
    if (twin?.name === trimmed) return createAndAdd(trimmed);
    setChecking(true);
    try {
      const same = await ownAlbumsNamed(trimmed);
      if (same[0]) setTwin({ name: trimmed, existing: same[0] });
      else createAndAdd(trimmed);
    } catch {
      // The check is a courtesy: when it cannot be made, the album is made as asked.
      createAndAdd(trimmed);
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="album-menu">
      {/* Icon and words; a phone's selection bar keeps the icon alone (library.css). */}
      <Button variant="secondary" className="selection-bar__icon" aria-label="Add to album" aria-expanded={open} onClick={() => setOpen((v) => !v)} disabled={busy}>
        <Icon name="albums" />
        <span className="selection-bar__label">Add to album</span>
      </Button>
      {open && (
        <div className="album-menu__panel" role="dialog" aria-label="Add to album">
          <ul className="album-menu__list">
            {/* A viewer of a shared album cannot add to it; a contributor adds their own photos. */}
            {(albums.data?.albums ?? []).filter((a) => a.role !== 'viewer').map((a) => (
              <li key={a.album_id}>
                <button type="button" className="album-menu__item" disabled={busy} onClick={() => addTo(a.album_id, a.album_name)}>
                  {a.album_name} <span>({a.asset_count})</span>
                </button>
              </li>
            ))}
          </ul>
          <form
            className="album-menu__new"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <input
              aria-label="New album name"
              placeholder="New album…"
              value={name}
              maxLength={200}
              onChange={(e) => {
                setName(e.target.value);
                if (twin && e.target.value.trim() !== twin.name) setTwin(null);
              }}
            />
            <Button type="submit" variant="secondary" busy={busy} busyLabel="Adding…" disabled={!name.trim()}>
              Create and add
            </Button>
          </form>
          {twin && (
            <div className="album-menu__twin" role="group" aria-label="An album of this name exists">
              <p role="alert">You already have an album called “{twin.existing.album_name}” — create another?</p>
              <Button variant="secondary" disabled={busy} onClick={() => addTo(twin.existing.album_id, twin.existing.album_name)}>
                Add to “{twin.existing.album_name}”
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => createAndAdd(twin.name)}>
                Create another
              </Button>
            </div>
          )}
          {(add.isError || create.isError) && <p className="field__error">{messageOf(add.error ?? create.error)}</p>}
        </div>
      )}
    </div>
  );
}

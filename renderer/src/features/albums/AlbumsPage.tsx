/**
 * Albums: the household member's albums as cards (cover, name, count), and a form for a new one.
 * A new album opens at once (the next thing is to fill it). A name the member already uses for one
 * of their albums is asked about first ("create another?"), since two albums of one name are usually
 * a slip; the server allows it (two "Birthday" albums of different years are fine).
 */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { TextField } from '../../components/TextField';
import { Thumbnail } from '../../photos/Thumbnail';
import { AlbumSharedNote } from './sharing/AlbumSharedNote';
import { ownAlbumsNamed, useAlbums, useCreateAlbum, type Album } from './albums-api';
import './albums.css';

export function NewAlbumForm({ onCreated }: { onCreated?: (albumId: number) => void }) {
  const [name, setName] = useState('');
  const [twin, setTwin] = useState<{ name: string; existing: Album } | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<unknown>(null);
  const create = useCreateAlbum();
  const navigate = useNavigate();
  const trimmed = name.trim();

  const make = (albumName: string) => {
    setTwin(null);
    create.mutate(
      { album_name: albumName },
      {
        onSuccess: (album) => {
          setName('');
          const albumId = (album as { album_id: number }).album_id;
          if (onCreated) onCreated(albumId);
          else void navigate(`/albums/${albumId}`);
        },
      },
    );
  };

  const submit = async () => {
    if (!trimmed || checking || create.isPending) return;
    // Asked already about this very name: the second press of "Create album" means "yes".
    if (twin?.name === trimmed) return make(trimmed);
    setCheckError(null);
    setChecking(true);
    try {
      const same = await ownAlbumsNamed(trimmed);
      if (same[0]) setTwin({ name: trimmed, existing: same[0] });
      else make(trimmed);
    } catch (e) {
      setCheckError(e);
    } finally {
      setChecking(false);
    }
  };

  return (
    <form
      className="album-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <TextField
        label="New album name"
        value={name}
        maxLength={200}
        onChange={(v) => {
          setName(v);
          if (twin && v.trim() !== twin.name) setTwin(null);
        }}
      />
      <Button type="submit" busy={create.isPending || checking} busyLabel="Creating…" disabled={!trimmed}>
        Create album
      </Button>
      {twin && (
        <div className="album-form__twin" role="group" aria-label="An album of this name exists">
          <p role="alert">You already have an album called “{twin.existing.album_name}” — create another?</p>
          <div className="album-form__twin-actions">
            <Button onClick={() => make(twin.name)} busy={create.isPending} busyLabel="Creating…">
              Create another
            </Button>
            <Link className="button button--secondary" to={`/albums/${twin.existing.album_id}`}>
              Open “{twin.existing.album_name}”
            </Link>
            <Button variant="quiet" onClick={() => setTwin(null)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {(create.isError || checkError !== null) && <p className="field__error">{messageOf(create.error ?? checkError)}</p>}
    </form>
  );
}

export function AlbumsPage() {
  const albums = useAlbums();
  const list = albums.data?.albums ?? [];
  return (
    <>
      <PageHeader title="Albums">{list.length > 0 && <p>{list.length === 1 ? '1 album.' : `${list.length} albums.`}</p>}</PageHeader>
      <NewAlbumForm />
      {albums.isPending && <p role="status">Loading albums…</p>}
      {albums.isError && <p className="field__error">{messageOf(albums.error)}</p>}
      {albums.isSuccess && list.length === 0 && (
        <EmptyState icon="albums" title="No albums yet">
          <p>Create one above, or select photos in the timeline and choose “Add to album”.</p>
        </EmptyState>
      )}
      <ul className="album-cards" aria-label="Albums">
        {list.map((a) => (
          <li key={a.album_id} className="album-card">
            <Link to={`/albums/${a.album_id}`} className="album-card__link">
              <span className="album-card__cover">
                {a.display_cover_asset_id ? (
                  <Thumbnail assetId={a.display_cover_asset_id} size="medium" alt="" className="album-card__image" fallback={<span className="album-card__blank" />} />
                ) : (
                  <span className="album-card__blank" />
                )}
              </span>
              <strong>{a.album_name}</strong>
              <span className="album-card__count">{a.asset_count === 1 ? '1 item' : `${a.asset_count} items`}</span>
              <AlbumSharedNote album={a} />
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}

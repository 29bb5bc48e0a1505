/** Albums: the household member's albums as cards (cover, name, count), and a form for a new one. */
import { useState } from 'react';
import { Link } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { TextField } from '../../components/TextField';
import { Thumbnail } from '../library/Thumbnail';
import { AlbumSharedNote } from '../sharing/AlbumSharedNote';
import { useAlbums, useCreateAlbum } from './albums-api';
import './albums.css';

export function NewAlbumForm({ onCreated }: { onCreated?: (albumId: number) => void }) {
  const [name, setName] = useState('');
  const create = useCreateAlbum();
  return (
    <form
      className="album-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!name.trim()) return;
        create.mutate(
          { album_name: name.trim() },
          {
            onSuccess: (album) => {
              setName('');
              onCreated?.((album as { album_id: number }).album_id);
            },
          },
        );
      }}
    >
      <TextField label="New album name" value={name} maxLength={200} onChange={setName} />
      <Button type="submit" busy={create.isPending} busyLabel="Creating…" disabled={!name.trim()}>
        Create album
      </Button>
      {create.isError && <p className="field__error">{messageOf(create.error)}</p>}
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

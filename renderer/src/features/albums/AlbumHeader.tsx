/**
 * An album's heading: its name (the page's one h1), the count, and its description. The owner
 * renames it and writes the description in place (EditableText): Enter or leaving the field saves,
 * Escape cancels, and a refusal shows beside the field. Members of a shared album read them.
 */
import { ApiError } from '../../api/problem';
import { messageOf } from '../../api/problem';
import { useDocumentTitle } from '../../lib/use-document-title';
import type { Album } from './albums-api';
import { useUpdateAlbum } from './albums-api';
import { EditableText } from './EditableText';
import { sharedAlbumNote } from './sharing/AlbumShareButtons';

/** The server's limits (albums.routes.ts). */
const NAME_MAX = 200;
const DESCRIPTION_MAX = 2000;

/** The field's own message when the server names it, else the problem's words. */
const errorFor = (field: string) => (e: unknown) => (e instanceof ApiError && e.fieldErrors[field]) || messageOf(e);

export function AlbumHeader({ album }: { album: Album | undefined }) {
  useDocumentTitle(album?.album_name ?? 'Album');
  const update = useUpdateAlbum(album?.album_id ?? 0);
  const owner = album?.role === 'owner';
  const count = album ? (album.asset_count === 1 ? '1 item' : `${album.asset_count} items`) : '';

  return (
    <header className="page-header album-header">
      {album ? (
        <EditableText
          className="album-header__name"
          value={album.album_name}
          label="Album name"
          editLabel="Rename album"
          editable={owner}
          maxLength={NAME_MAX}
          validate={(v) => (v ? null : 'An album needs a name.')}
          onSave={(album_name) => update.mutateAsync({ album_name })}
          errorOf={errorFor('album_name')}
          render={(text) => <h1 className="page-header__title">{text}</h1>}
        />
      ) : (
        <h1 className="page-header__title">Album</h1>
      )}
      {album && (
        <div className="page-header__intro album-header__intro">
          {/* Shared: with how many (the owner), or by whom and what the member may do. */}
          <p>{[count, sharedAlbumNote(album)].filter(Boolean).join(' · ')}</p>
          <EditableText
            className="album-header__description"
            value={album.description ?? ''}
            label="Description"
            placeholder="Add a description"
            editLabel="Edit description"
            multiline
            editable={owner}
            maxLength={DESCRIPTION_MAX}
            onSave={(text) => update.mutateAsync({ description: text || null })}
            errorOf={errorFor('description')}
            render={(text) => text && <p className="album-header__text">{text}</p>}
          />
        </div>
      )}
    </header>
  );
}

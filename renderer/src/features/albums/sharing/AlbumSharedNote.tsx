/** On an album card: "Shared by <name>" for an album shared with me, "Shared" for mine that others are in. */
import type { Album } from '../albums-api';
// Sharing's styles (album-card__shared), which come with its public surface.
import '../../sharing';

export function AlbumSharedNote({ album }: { album: Album }) {
  if (album.role !== 'owner') return <span className="album-card__shared">Shared by {album.owner?.display_name ?? 'another member'}</span>;
  if (album.shared) return <span className="album-card__shared">Shared with {album.member_count === 1 ? '1 member' : `${album.member_count} members`}</span>;
  return null;
}

/**
 * The sharing controls of an album page: "Share" (the owner: members and roles) or "Members" (a
 * member: who else is in it, and Leave), and "Create link" for the owner (a public link shows the
 * owner's own photos of the album; links.service.ts).
 */
import { useState } from 'react';
import { useMe } from '../../../api/use-me';
import { Button } from '../../../components/Button';
import type { Album } from '../albums-api';
import { AlbumMembersDialog } from './AlbumMembersDialog';
import { ShareLinkDialog } from '../../sharing';

export function AlbumShareButtons({ album }: { album: Album }) {
  const me = useMe();
  const [open, setOpen] = useState<'members' | 'link' | null>(null);
  if (!me) return null;
  const isOwner = album.role === 'owner';
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen('members')}>
        {isOwner ? 'Share' : 'Members'}
      </Button>
      {isOwner && (
        <Button variant="secondary" onClick={() => setOpen('link')}>
          Create link
        </Button>
      )}
      {open === 'members' && <AlbumMembersDialog album={album} myUserId={me.user_id} onClose={() => setOpen(null)} />}
      {open === 'link' && <ShareLinkDialog target={{ album_id: album.album_id, name: album.album_name }} onClose={() => setOpen(null)} />}
    </>
  );
}

/** A line under a shared album's title: whose it is and the caller's role. */
export function sharedAlbumNote(album: Album): string | null {
  if (album.role === 'owner') return album.shared ? (album.member_count === 1 ? 'Shared with 1 member' : `Shared with ${album.member_count} members`) : null;
  const by = album.owner?.display_name ?? 'another member';
  return album.role === 'viewer' ? `Shared by ${by} · you can look` : `Shared by ${by} · you can add your photos`;
}

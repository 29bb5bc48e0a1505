/**
 * Server state of an album's members (who it is shared with, and their roles). Kept by the albums
 * feature, which shows them; the keys live with the rest of sharing's (sharingKeys), so "everything
 * shared" is still read again as one.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { request } from '../../../api/problem';
import { sharingKeys, type AlbumRole } from '../../sharing';
import { albumKeys } from '../albums-api';

export function useAlbumMembers(albumId: number) {
  return useQuery({
    queryKey: sharingKeys.albumMembers(albumId),
    queryFn: ({ signal }) => request(api.GET('/api/v1/albums/{id}/members', { params: { path: { id: albumId } }, signal })),
  });
}

/** A change to an album's members: the album (role, member count) and the lists show it. */
function useAlbumMembersMutation<T>(albumId: number, fn: (arg: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sharingKeys.albumMembers(albumId) });
      await queryClient.invalidateQueries({ queryKey: albumKeys.all });
    },
  });
}

export function useAddAlbumMember(albumId: number) {
  return useAlbumMembersMutation(albumId, (body: { user_id: number; role: AlbumRole }) =>
    request(api.POST('/api/v1/albums/{id}/members', { params: { path: { id: albumId } }, body })),
  );
}

export function useUpdateAlbumMember(albumId: number) {
  return useAlbumMembersMutation(albumId, ({ userId, role }: { userId: number; role: AlbumRole }) =>
    request(api.PUT('/api/v1/albums/{id}/members/{userId}', { params: { path: { id: albumId, userId } }, body: { role } })),
  );
}

/** The owner removes a member; a member removes themselves (leaving the album). */
export function useRemoveAlbumMember(albumId: number) {
  return useAlbumMembersMutation(albumId, (userId: number) =>
    request(api.DELETE('/api/v1/albums/{id}/members/{userId}', { params: { path: { id: albumId, userId } } })),
  );
}

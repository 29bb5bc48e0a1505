/**
 * Server state of sharing for a signed-in member: the household's members to pick from, partner
 * shares and public links (operations in server/operations.extensions.md). An album's members are
 * the albums feature's (albums/sharing/album-members-api.ts).
 * The public link page does not use this file: it has its own client without a session
 * (public/public-api.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import type { components } from '../../api/schema';
import { libraryKeys } from '../../photos/library-api';

export type HouseholdMember = components['schemas']['HouseholdMember'];
export type AlbumMember = NonNullable<components['schemas']['AlbumMember']>;
export type PartnerShare = components['schemas']['PartnerShare'];
export type ShareLink = components['schemas']['ShareLink'];
export type AlbumRole = 'viewer' | 'contributor';

export const sharingKeys = {
  all: ['sharing'] as const,
  members: ['sharing', 'members'] as const,
  albumMembers: (albumId: number) => ['sharing', 'album', albumId] as const,
  partners: ['sharing', 'partners'] as const,
  links: ['sharing', 'links'] as const,
};

/** The other active members of the household (listHouseholdMembers). */
export function useHouseholdMembers() {
  return useQuery({
    queryKey: sharingKeys.members,
    queryFn: ({ signal }) => request(api.GET('/api/v1/sharing/members', { signal })),
    staleTime: 60_000,
  });
}

export function usePartnerShares() {
  return useQuery({ queryKey: sharingKeys.partners, queryFn: ({ signal }) => request(api.GET('/api/v1/partner-shares', { signal })) });
}

/** A change to partner sharing also changes whose photos the timeline lists. */
function usePartnerMutation<T>(fn: (arg: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sharingKeys.partners });
      await queryClient.invalidateQueries({ queryKey: libraryKeys.all });
    },
  });
}

export function useCreatePartnerShare() {
  return usePartnerMutation((body: { partner_user_id: number; shared_from?: string | null }) => request(api.POST('/api/v1/partner-shares', { body })));
}

export function useUpdatePartnerShare() {
  return usePartnerMutation(({ id, ...body }: { id: number; shared_from?: string | null; show_in_timeline?: boolean }) =>
    request(api.PUT('/api/v1/partner-shares/{id}', { params: { path: { id } }, body })),
  );
}

export function useDeletePartnerShare() {
  return usePartnerMutation((id: number) => request(api.DELETE('/api/v1/partner-shares/{id}', { params: { path: { id } } })));
}

export function useShareLinks() {
  return useQuery({ queryKey: sharingKeys.links, queryFn: ({ signal }) => request(api.GET('/api/v1/share-links', { signal })) });
}

function useLinkMutation<T, R>(fn: (arg: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKeys.links }) });
}

export interface NewShareLink {
  album_id?: number;
  asset_ids?: string[];
  title?: string | null;
  expires_at?: string | null;
  password?: string | null;
  allow_download?: boolean;
}

export function useCreateShareLink() {
  return useLinkMutation((body: NewShareLink) => request(api.POST('/api/v1/share-links', { body })));
}

export function useUpdateShareLink() {
  return useLinkMutation(({ id, ...body }: { id: number; title?: string | null; expires_at?: string | null; password?: string | null; allow_download?: boolean; revoked?: boolean }) =>
    request(api.PUT('/api/v1/share-links/{id}', { params: { path: { id } }, body })),
  );
}

export function useDeleteShareLink() {
  return useLinkMutation((id: number) => request(api.DELETE('/api/v1/share-links/{id}', { params: { path: { id } } })));
}

/** The address a visitor opens: the public page, on the address this browser reached Hearth by. */
export const publicLinkUrl = (key: string) => `${window.location.origin}/s/${encodeURIComponent(key)}`;

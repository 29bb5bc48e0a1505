/**
 * The viewer's and the selection bar's slots (photos/viewer-slots.tsx), from each feature's public
 * surface. Fetched with the viewer's script (photos/lazy-parts.ts), not with the first screen.
 */
import { AddToAlbumMenu } from '../features/albums';
import { useAskAbout } from '../features/assistant';
import { FaceBoxes, ViewerPeople } from '../features/people';
import { OcrOverlay, OcrText, searchHref } from '../features/search';
import { SelectionLinkButton } from '../features/sharing';
import { StackStrip, useCreateStack } from '../features/stacks';
import type { ViewerSlots } from '../photos/viewer-slots';

export const viewerSlotFills: ViewerSlots = {
  overlays: { Highlight: OcrOverlay, Faces: FaceBoxes },
  infoSections: { People: ViewerPeople, Text: OcrText },
  actions: { similarHref: (assetId) => searchHref({ kind: 'similar', assetId }), StackStrip, useAskAbout },
  selection: { AddToAlbum: AddToAlbumMenu, LinkButton: SelectionLinkButton, useCreateStack },
};

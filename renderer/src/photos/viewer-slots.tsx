/**
 * Slots: the places in the shared grid, viewer and selection bar where a feature adds its part (the
 * faces over a photo, the photo's text, "Add to album", the stack strip, …). The shared layer
 * (photos/) may not import a feature (eslint.config.js), so it names each place here and the app
 * fills them from the features (app/photo-slots.ts) before anything renders.
 *
 * Decision: named places, not open lists. Each part sits in one fixed spot of its screen (the people
 * after the capture edits, the text at the end of the details, "Stack" last in the selection's menu),
 * so a list in registration order would let a new feature move what the household already knows.
 * An empty place renders nothing, so the layer works unfilled (a page opened before the fill, tests).
 *
 * Two halves, so that the first screen stays small: the `grid` half (tile badges, the hook that
 * hears of finished uploads) is small and filled at start; the `viewer` half (overlays, info
 * sections, actions and the selection's actions) is a loader, fetched with the viewer's or the
 * selection bar's own script (RoutedViewer.tsx, AssetCollectionPage.tsx) and read once loaded.
 */
import type { ComponentType } from 'react';
import type { SearchMatch } from './match';
import type { Quad } from './picture-geometry';

/** Whose photo a tile shows (a partner's, or who added it to a shared album). */
export interface PersonLike {
  display_name: string;
  initials: string;
}

/** The small half: drawn by every tile and list page. */
export interface GridSlots {
  /** The owner's initials on a tile that is not the reader's own (features/sharing). */
  OwnerChip: ComponentType<{ person: PersonLike; belowStack?: boolean }> | null;
  /** Why a search result matched, at the tile's foot (features/search). */
  TileWhy: ComponentType<{ match: SearchMatch; name: string }> | null;
  /** Calls `onSettled` whenever an upload of this account finishes (features/upload): the grid refreshes. */
  useUploadSettled: (onSettled: () => void) => void;
}

/** A mutation as the selection bar uses it: run it, and show its progress and failure with the bar's own. */
export interface SelectionMutation {
  mutate: (ids: string[], options?: { onSuccess?: () => void }) => void;
  isPending: boolean;
  error: Error | null;
}

/** The large half: the viewer and the selection bar, fetched with their scripts. */
export interface ViewerSlots {
  overlays: {
    /** A box over the photo (zooming with it) for the line of text chosen in the details (features/search). */
    Highlight: ComponentType<{ quad: Quad | null }> | null;
    /** The faces found in the photo, boxed and named, while the details are open (features/people). */
    Faces: ComponentType<{ assetId: string }> | null;
  };
  infoSections: {
    /** The photo's people, after its capture edits (features/people). */
    People: ComponentType<{ assetId: string }> | null;
    /** The text read in the photo; a line picked is handed to `onHighlight` (features/search). */
    Text: ComponentType<{ assetId: string; onHighlight: (quad: Quad | null) => void }> | null;
  };
  actions: {
    /** Where "Find similar" goes for an asset (features/search); no button without it. */
    similarHref: ((assetId: string) => string) | null;
    /** The members of the item's stack, below the photo (features/stacks). */
    StackStrip: ComponentType<{ assetId: string; shownId: string; onShow: (assetId: string) => void; onRemoved: (assetId: string) => void }> | null;
    /**
     * "Ask about this" (features/assistant): the hook gives what opens the assistant with the photo as the
     * question's context, or null while the assistant is off (no button then).
     */
    useAskAbout: (() => ((photo: { assetId: string; label: string }) => void) | null) | null;
  };
  selection: {
    /** "Add to album" for the selection (features/albums). */
    AddToAlbum: ComponentType<{ assetIds: readonly string[]; onDone: () => void }> | null;
    /** A public link to the selection (features/sharing). */
    LinkButton: ComponentType<{ ids: string[]; disabled?: boolean }> | null;
    /** Stacks the selection, first picked on top (features/stacks); no "Stack" without it. */
    useCreateStack: (() => SelectionMutation) | null;
  };
}

const noUploads = () => {};
let grid: GridSlots = { OwnerChip: null, TileWhy: null, useUploadSettled: noUploads };
const EMPTY_VIEWER: ViewerSlots = {
  overlays: { Highlight: null, Faces: null },
  infoSections: { People: null, Text: null },
  actions: { similarHref: null, StackStrip: null, useAskAbout: null },
  selection: { AddToAlbum: null, LinkButton: null, useCreateStack: null },
};
let viewer: ViewerSlots = EMPTY_VIEWER;
let loadViewer: () => Promise<ViewerSlots> = () => Promise.resolve(EMPTY_VIEWER);
let viewerLoading: Promise<ViewerSlots> | null = null;

/** Called once by the app before its first render. */
export function fillPhotoSlots(gridSlots: GridSlots, viewerSlots: () => Promise<ViewerSlots>): void {
  grid = gridSlots;
  loadViewer = viewerSlots;
  viewerLoading = null;
}

export const gridSlots = (): GridSlots => grid;

/** Fetches the viewer half once; the viewer's and the selection bar's loaders wait for it. */
export function loadViewerSlots(): Promise<ViewerSlots> {
  viewerLoading ??= loadViewer().then((v) => (viewer = v));
  return viewerLoading;
}

/** The viewer half as loaded (read by components whose loader awaited `loadViewerSlots`). */
export const viewerSlots = (): ViewerSlots => viewer;

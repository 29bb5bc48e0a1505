/**
 * The viewer and the selection bar are their own scripts, fetched when first needed (the grid is the
 * first screen and does not need them); each waits for the slots the features fill in them
 * (viewer-slots.tsx), so a slot never appears a moment after its screen.
 */
import { lazyPage } from '../lib/lazy-page';
import { loadViewerSlots } from './viewer-slots';

export const LazyViewer = lazyPage(() => Promise.all([import('./Viewer'), loadViewerSlots()]).then(([m]) => m.Viewer));
export const LazySelectionBar = lazyPage(() => Promise.all([import('./SelectionBar'), loadViewerSlots()]).then(([m]) => m.SelectionBar));

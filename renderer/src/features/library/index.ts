/** The library feature's public surface: its pages (routed by the app); no other feature uses it. */
export { FavouritesPage } from './FavouritesPage';
export { PhotosPage } from './PhotosPage';
export { TrashPage } from './TrashPage';

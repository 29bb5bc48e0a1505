/**
 * The library sections the navigation offers. Photos and Upload have their pages (app/SignedInApp);
 * the others say honestly what they will show once they exist, instead of sample pictures that are
 * not the household's.
 */
import type { IconName } from '../../components/Icon';

export interface LibrarySection {
  path: string;
  label: string;
  icon: IconName;
  emptyTitle: string;
  emptyText: string;
}

export const LIBRARY_SECTIONS: LibrarySection[] = [
  {
    path: '/',
    label: 'Photos',
    icon: 'photos',
    emptyTitle: 'No photos yet',
    emptyText: 'Photos and videos you add appear here, newest first.',
  },
  {
    path: '/albums',
    label: 'Albums',
    icon: 'albums',
    emptyTitle: 'No albums yet',
    emptyText: 'Once the library is set up, you can gather photos into albums here.',
  },
  {
    path: '/folders',
    label: 'Folders',
    icon: 'folders',
    emptyTitle: 'No folders yet',
    emptyText: 'Once the library is set up, its folders will be listed here as they are on disk.',
  },
  {
    path: '/map',
    label: 'Map',
    icon: 'map',
    emptyTitle: 'Nothing on the map yet',
    emptyText: 'Photos that know where they were taken will appear on a map here once the library is set up.',
  },
  {
    path: '/favourites',
    label: 'Favourites',
    icon: 'heart',
    emptyTitle: 'No favourites yet',
    emptyText: 'Photos you mark as favourites will be gathered here once the library is set up.',
  },
  {
    path: '/trash',
    label: 'Trash',
    icon: 'trash',
    emptyTitle: 'Trash is empty',
    emptyText: 'Once the library is set up, photos you delete will wait here for a while before they are removed for good.',
  },
  {
    path: '/upload',
    label: 'Upload',
    icon: 'upload',
    emptyTitle: 'Nothing uploading',
    emptyText: 'Add photos and videos from this device here.',
  },
];

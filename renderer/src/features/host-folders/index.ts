/** "A folder on the home machine" (host actions): the card members ask the home machine for a folder with. */
export { HomeFolderCard } from './HomeFolderCard';

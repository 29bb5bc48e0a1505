/** The folders feature's public surface: the folder picker (the library's filters use it). */
export { FolderPicker, type PickedFolder } from './FolderPicker';

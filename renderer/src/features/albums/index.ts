/**
 * The albums feature's public surface: "Add to album" (a slot of the selection bar), the albums list,
 * and the in-place text editor that people and photo events name things with. Importing it brings
 * albums.css, which that editor and the album cards are drawn with.
 */
import './albums.css';

export { AddToAlbumMenu } from './AddToAlbumMenu';
export { EditableText } from './EditableText';
export { useAlbums } from './albums-api';

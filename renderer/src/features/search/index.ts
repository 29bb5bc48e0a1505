/** The search feature's public surface: its parts of the grid and viewer (slots, filled in app/), and its addresses. */
export { OcrOverlay } from './OcrOverlay';
export { OcrText } from './OcrText';
export { TileWhy } from './TileWhy';
export { searchHref } from './search-url';

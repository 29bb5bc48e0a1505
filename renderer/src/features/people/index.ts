/** The people feature's public surface: its parts of the viewer (slots, filled in app/). */
export { FaceBoxes } from './FaceBoxes';
export { ViewerPeople } from './ViewerPeople';

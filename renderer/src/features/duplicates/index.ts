/** The duplicates feature's public surface: its page (routed by the app); no other feature uses it. */
export { DuplicatesPage } from './DuplicatesPage';

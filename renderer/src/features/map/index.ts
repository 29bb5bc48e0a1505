/**
 * The map feature's public surface: its styles, for a small map drawn elsewhere (an event's map uses
 * the same canvas classes); the page itself is routed by the app. The world's outline is shared
 * (lib/world.ts).
 */
import './map.css';

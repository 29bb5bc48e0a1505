/** The Board's address (the app routes it; the navigation links to it while the assistant is on). */
export const BOARD_PATH = '/board';

/** A pin's own page: its photos in a grid, the viewer under it. */
export const pinPath = (pinId: string) => `${BOARD_PATH}/${encodeURIComponent(pinId)}`;

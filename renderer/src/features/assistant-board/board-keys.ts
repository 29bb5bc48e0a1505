/** The query key of the member's pins: the Board lists them, the chat panel's Pin refreshes them. */
export const BOARD_PINS_KEY = ['assistant-board', 'pins'] as const;
